"""The ladder's Elo chart (``static/ladder.js``) in a real Chromium: with more entrants than its
8 colours, no two lines look alike (outside review: with 10 bot versions, two pairs of lines
shared a colour and nothing else told them apart)."""

from __future__ import annotations

import json
from pathlib import Path

STATIC = Path(__file__).parents[2] / "arena" / "web" / "static"
ENTRANTS = 40


def _history(entrants: int) -> dict:
    """Two games' Elo for each of ``entrants`` versions, as the ladder page's data holds it."""
    history = [
        {
            "bot_version_id": version,
            "players": 2,
            "elo": 1500 + version,
            "game_id": 2 * version + game,
            "finished_at": f"2026-12-06T04:{version:02d}:{game:02d}",
        }
        for version in range(entrants)
        for game in range(2)
    ]
    labels = {str(v): f"bot-{v} 1.0.0" for v in range(entrants)}
    return {"ladder": {"rating_history": history, "labels": labels}}


def test_more_entrants_than_colours_get_lines_of_their_own_style(page):
    page.set_content(
        '<div style="height:400px"><canvas id="ladder-chart"></canvas></div>'
        '<script type="application/json" id="page-data">'
        f"{json.dumps(_history(ENTRANTS))}</script>"
    )
    page.add_script_tag(path=str(next((STATIC / "vendor").glob("chart-*.js"))))
    page.add_script_tag(path=str(STATIC / "ladder.js"))
    styles = page.evaluate(
        """() => Chart.getChart(document.getElementById('ladder-chart')).data.datasets.map(
            (d) => JSON.stringify([d.borderColor, d.borderDash, d.pointStyle]))"""
    )
    assert len(styles) == ENTRANTS
    assert len(set(styles)) == ENTRANTS, styles
    first_eight = [json.loads(style) for style in styles[:8]]
    assert all(dash == [] for _, dash, _ in first_eight)  # solid while the colours last
    # the legend shows each line's dashes too (a filled box would hide them)
    legend = page.evaluate(
        """() => Chart.getChart(document.getElementById('ladder-chart')).legend.legendItems.map(
            (item) => JSON.stringify(item.lineDash))"""
    )
    assert legend == [json.dumps(json.loads(style)[1], separators=(",", ":")) for style in styles]


def test_chart_labels_tell_apart_versions_with_one_number():
    """Review K: five uploads of one bot.toml version were five lines named alike."""
    from arena.web.ladder import chart_labels

    versions = {
        1: {"bot": "a", "version": "1.0", "hash": "aaaa1111"},
        2: {"bot": "a", "version": "1.0", "hash": "bbbb2222"},
        3: {"bot": "b", "version": "1.0", "hash": "cccc3333"},
    }
    assert chart_labels(versions) == {"1": "a 1.0 #aaaa1111", "2": "a 1.0 #bbbb2222", "3": "b 1.0"}


def test_the_lines_follow_the_leaderboards_order(page):
    """The legend reads as the leaderboard above it: best first (a version not on the board
    shown, a retired one, after them)."""
    data = _history(6)
    rows = [{"version_id": version, "position": 5 - version} for version in range(1, 6)]
    data["ladder"]["boards"] = [{"players": 2, "rows": rows}]
    page.set_content(
        '<div style="height:400px"><canvas id="ladder-chart"></canvas></div>'
        f'<script type="application/json" id="page-data">{json.dumps(data)}</script>'
    )
    page.add_script_tag(path=str(next((STATIC / "vendor").glob("chart-*.js"))))
    page.add_script_tag(path=str(STATIC / "ladder.js"))
    labels = page.evaluate(
        """() => Chart.getChart(document.getElementById('ladder-chart')).data.datasets.map(
            (d) => [d.label, d.data.map((point) => point.game)])"""
    )
    assert [label for label, _ in labels] == [f"bot-{v} 1.0.0" for v in (5, 4, 3, 2, 1, 0)]
    assert all(games == sorted(games) for _, games in labels)  # each line in time order
