"""Take README's screenshots of the web app: `python docs/screenshots.py` (writes docs/*.png).

It starts `liuren serve` on a free port of 127.0.0.1 and drives Debian's chromium through
Playwright (executable_path: nothing is downloaded; LIUREN_CHROMIUM names another binary).
The shots: a board with a chain open (desktop, zh), the same board on a phone (390 px, ja),
the drill after its first step, the worksheet as printed, a 神煞 row's page (財) and its
WHY-NOT on a phone (ja).  A script, not a test.
"""
import os
import pathlib
import re
import shutil
import subprocess
import sys
import threading
import urllib.parse

HERE = pathlib.Path(__file__).resolve().parent
CHROMIUM = os.environ.get("LIUREN_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")

BOARD = urllib.parse.urlencode({"day": "丁卯", "on": "亥加丑", "month": "壬寅", "why": "ge-zhanshou"})
WHYNOT = urllib.parse.urlencode({"day": "丁卯", "on": "亥加丑", "month": "壬寅", "why": "伏吟課"})
SHOTS = [
    # (file, path, width, height, full page)
    ("web-board.png", f"/board?{BOARD}", 1280, 900, False),
    ("web-whynot.png", f"/board?{WHYNOT}&lang=ja", 1280, 900, False),
    ("web-phone.png", f"/board?{BOARD}&lang=ja", 390, 844, False),
    ("web-phone-zh.png", f"/board?{WHYNOT}", 390, 844, False),
    ("web-practice.png", "/practice?seed=12&gate=%E6%B6%89%E5%AE%B3", 1280, 900, False),
    ("web-sheet.png", "/practice/sheet?seed=11&n=12", 1000, 1300, False),
    ("web-rule-sha.png", "/rules/sha-cai", 1280, 900, False),
    ("web-whynot-sha-ja.png", "/board?" + urllib.parse.urlencode({"day": "甲子", "on": "子加子", "month": "庚寅",
                                                                   "why": "財", "lang": "ja"}) + "#chain",
     390, 844, False),
]


def serve():
    proc = subprocess.Popen([sys.executable, "-m", "liuren", "serve", "--port", "0"], stdout=subprocess.PIPE,
                            text=True, encoding="utf-8", env=dict(os.environ, PYTHONUNBUFFERED="1"))
    line = [""]
    t = threading.Thread(target=lambda: line.__setitem__(0, proc.stdout.readline()), daemon=True)
    t.start()
    t.join(180)
    m = re.search(r"(http://\S+?)/\s", line[0] or "")
    if not m:
        proc.kill()
        sys.exit(f"screenshots: liuren serve did not start: {line[0]!r}")
    return proc, m.group(1)


def practice_first_step(page):
    """Answer the drill's 涉害 lesson: the 四課 rightly, then the 三傳 of the other school (先孟仲),
    so the shot shows it taken and named."""
    from liuren import cast
    from liuren.app.practice import practice_lesson
    les = practice_lesson(12, "涉害")
    b = cast(day=les["day"], on=les["on"], night=les["night"] == "true")
    for i, l in enumerate(b.lessons):
        page.select_option(f"#ans-k{i + 1}", l.upper)
    page.click("#check-lessons")
    page.locator("#step2").wait_for(timeout=60000)
    alt = cast(day=les["day"], on=les["on"], night=les["night"] == "true", shehai="mengzhong").transmissions
    for k, v in zip(("chu", "zhong", "mo"), alt.branches):
        page.select_option(f"#ans-{k}", v)
    page.select_option("#ans-gate", alt.gate)
    page.click("#check")
    page.locator("#step3").wait_for(timeout=60000)


def main():
    if CHROMIUM is None:
        sys.exit("screenshots: no chromium on PATH (apt-get install chromium)")
    from playwright.sync_api import sync_playwright
    proc, url = serve()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            for name, path, w, h, full in SHOTS:
                ctx = browser.new_context(viewport={"width": w, "height": h}, device_scale_factor=1)
                page = ctx.new_page()
                page.goto(url + path, timeout=120000)
                if name == "web-practice.png":
                    practice_first_step(page)
                if name == "web-sheet.png":
                    page.emulate_media(media="print")
                if "why=" in path:
                    page.locator("#chain").wait_for(timeout=60000)
                    page.wait_for_timeout(1500)            # the graph's layout
                    if w < 500 and path.startswith(f"/board?{WHYNOT}"):
                        # on a phone the chain comes after the board: the shot of WHY-NOT shows WHY-NOT
                        page.evaluate("document.getElementById('chain').scrollIntoView()")
                        page.wait_for_timeout(300)
                page.screenshot(path=str(HERE / name), full_page=full)
                print(HERE / name)
                ctx.close()
            browser.close()
    finally:
        proc.terminate()
        proc.wait(20)


if __name__ == "__main__":
    main()
