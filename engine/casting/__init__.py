"""Casting: the board of a moment (四柱, 天地盤, 四課, 三傳, 天將, 旬空 …), from the calendar and the
casting tables of kb/core.  Pure: it knows no rule, no experta and no KB loader."""
