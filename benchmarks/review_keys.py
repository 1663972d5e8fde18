"""Keys and time a reviewer spends on the review page: a scripted pass in Debian's Chromium.

    extractor run fixtures/abstracts --out /tmp/demo
    python benchmarks/review_keys.py /tmp/demo            # needs: pip install '.[browser]', apt-get install chromium

Works on a copy of the run (the run itself is not reviewed). Accepts the first 100 claims with
the page's keys, one key each, then fixes one field of the next claim (its key, the text,
Enter: the keys the page received are counted); checks the store holds exactly those
decisions and prints keys and seconds per claim.
"""

from __future__ import annotations

import argparse
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from extractor.runs.corrections import read_history
from extractor.runs.files import PAPERS_FILE, RUN_FILE, STORE_FILE

FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync",
]
COUNT_KEYS = "window.__keys = 0; document.addEventListener('keydown', () => { window.__keys++; }, true);"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("run", type=Path)
    parser.add_argument("--claims", type=int, default=100)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    work = Path(tempfile.mkdtemp(prefix="review-keys-"))
    for name in (PAPERS_FILE, RUN_FILE):
        if (args.run / name).exists():
            shutil.copy(args.run / name, work / name)
    server = subprocess.Popen(
        [sys.executable, "-m", "extractor", "review", "serve", str(work), "--reviewer", "bench", "--port", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )
    try:
        url = server.stdout.readline().strip()
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=FLAGS)
            page = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
            page.add_init_script(COUNT_KEYS)  # counts on every page the pass loads
            page.goto(url)
            total = page.evaluate("document.getElementById('progress').textContent")
            keys = 0
            start = time.perf_counter()
            for _ in range(args.claims):
                with page.expect_navigation():
                    page.keyboard.press("a")
                keys += 1
            seconds = time.perf_counter() - start
            fixed = page.get_attribute("#main", "data-item")
            page.evaluate("window.__keys = 0")
            text = "top-1 accuracy"
            page.keyboard.press("m")
            page.wait_for_selector("td.value input")
            page.keyboard.type(text)  # the field opens with its text selected: typing replaces it
            fixing_keys = page.evaluate("window.__keys")  # received by the page: m and the text
            with page.expect_navigation():
                page.keyboard.press("Enter")
            fixing_keys += 1
            browser.close()
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=300)
    history = read_history(work / STORE_FILE)
    accepts = [c for c in history if c.field == "decision" and c.new_value == "accept"]
    metric = [c for c in history if c.field == "metric" and c.target_id == fixed]
    assert len(accepts) == args.claims and len(metric) == 1 and metric[0].new_value == text, (len(accepts), metric)
    print(f"run: {args.run} ({total.split('·')[0].strip()})")
    print(f"accepting {args.claims} claims: {keys} keys, {keys / args.claims:.2f} keys a claim, "
          f"{seconds:.1f} s ({seconds / args.claims:.2f} s a claim, page load included)")
    print(f"fixing one field ({text!r}, {len(text)} characters): {fixing_keys} keys "
          f"= its key + the text + Enter ({1 + len(text) + 1})")
    print(f"store: {len(accepts)} accepts, 1 metric edit, as pressed")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
