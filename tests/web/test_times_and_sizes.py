"""Times and sizes written one way on every page, as the CLI writes them (``arena.wording``):
"2026-12-06 04:26 UTC" (to the second for games and uploads), and bytes, KiB or MiB rather than
"0.0 MiB" (outside review: pages showed "2026-12-06T04:26:36" on some pages and
"2026-12-06 04:30:26" on others, neither saying the zone)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from arena.web.app import create_app
from arena.wording import size, utc_time

TEMPLATES = Path(__file__).parents[2] / "arena" / "web" / "templates"
SHOWN_TIME = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d(?::\d\d)? UTC")
ISO_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d")
BARE_TIME = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d(?::\d\d)?(?! UTC)(?![:\d])")


@pytest.mark.parametrize(
    ("count", "words"),
    [
        (0, "0 bytes"),
        (1, "1 byte"),
        (1023, "1023 bytes"),
        (1024, "1 KiB"),
        (3500, "3.4 KiB"),
        (10_189, "9.9 KiB"),  # rounded down, as the next case needs
        ((1 << 20) - 1, "1,023 KiB"),  # not "1 MiB", nor "1024 KiB"
        ((255 << 20) + (700 << 10), "255 MiB"),  # under a 256 MiB quota: not "256 MiB"
        (256 << 20, "256 MiB"),
        ((4 << 20) + 2, "4 MiB"),
        (3 << 30, "3 GiB"),
    ],
)
def test_a_size_takes_the_largest_unit_it_reaches(count: int, words: str):
    assert size(count) == words


def test_a_time_is_written_in_utc_and_says_so():
    assert utc_time("2026-12-06T04:26:36.123456") == "2026-12-06 04:26 UTC"  # naive: UTC
    assert utc_time("2026-12-06 04:26:36", seconds=True) == "2026-12-06 04:26:36 UTC"
    summer = timezone(timedelta(hours=2))
    assert utc_time(datetime(2026, 6, 1, 12, 0, tzinfo=summer)) == "2026-06-01 10:00 UTC"
    assert utc_time(datetime(2026, 6, 1, 12, 0, 5, tzinfo=UTC), seconds=True).endswith("05 UTC")
    assert utc_time(None) == ""


def test_no_template_slices_a_stored_time():
    """Every time goes through the ``utc`` filter; a slice ("[:19]") kept the "T" of ISO text."""
    for template in TEMPLATES.glob("*.html"):
        assert not re.search(r"_at\[:", template.read_text()), template.name


def _shown(html: str) -> str:
    """The page's text as read, without its embedded JSON (which keeps ISO times)."""
    return re.sub(r"<script.*?</script>", "", html, flags=re.DOTALL)


def test_every_page_writes_its_times_one_way(arena_db: Path, tmp_path: Path):
    client = TestClient(create_app(arena_db, warm_up=False, frames_dir=tmp_path / "frames"))
    game = client.get("/api/games").json()["games"][0]["id"]
    tournament = client.get("/api/tournaments").json()["tournaments"][0]["id"]
    for path in ["/games", f"/games/{game}", "/bots/random-python", "/tournaments"]:
        page = _shown(client.get(path).text)
        assert SHOWN_TIME.search(page), path
        assert not ISO_TIME.search(page) and not BARE_TIME.search(page), path
    page = _shown(client.get(f"/tournaments/{tournament}").text)
    assert re.search(r"started \d{4}-\d\d-\d\d \d\d:\d\d UTC", page)
    assert re.search(r"finished \d{4}-\d\d-\d\d \d\d:\d\d UTC", page)
    assert not ISO_TIME.search(page) and not BARE_TIME.search(page)
