"""Headless Chromium for the player's browser tests: Debian's chromium and chromedriver, driven by
Selenium. Missing ones skip the test, except under CI, where they are a failure."""

from __future__ import annotations

import os
import shutil
from typing import Any

import pytest

CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"


def chromium(width: int = 900, height: int = 1100) -> Any:
    """A started headless Chromium; the caller quits it."""
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not shutil.which(p)]
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        missing.append("selenium")
    if missing:
        if os.environ.get("CI"):
            pytest.fail(f"the browser test needs {', '.join(missing)} under CI")
        pytest.skip(f"no {', '.join(missing)}")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 f"--window-size={width},{height}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(30)
    return driver


def viewport(driver: Any, width: int, height: int, *, phone: bool = False) -> None:
    """Make the page's viewport exactly width × height CSS pixels (a headless window's size includes
    room for browser chrome); `phone` also emulates a touch screen."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": phone})
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled",
                           {"enabled": phone, **({"maxTouchPoints": 5} if phone else {})})
