"""The one place where the project works around a broken dependency.

experta 1.9.4 pins ``frozendict==1.2``.  frozendict 1.2 subclasses
``collections.Mapping``, an alias that Python removed in 3.10 (it lives in
``collections.abc``).  Importing experta on Python >= 3.10 therefore fails with
``AttributeError: module 'collections' has no attribute 'Mapping'``.

A resolver cannot install a newer frozendict next to experta's exact pin, so
instead we restore the old alias before experta (and with it frozendict) is
imported.  ``liuren/__init__.py`` (engine/__init__.py) imports this module first; nothing else in
the project needs to know about it.  Remove this file when experta drops the
pin.
"""
import collections
import collections.abc

if not hasattr(collections, "Mapping"):
    collections.Mapping = collections.abc.Mapping
