"""Charts keep their legend whole and their plot readable, on a phone too, and take dark mode's
colours (a real Chromium): on a phone the ladder's chart showed 6 of its 8 lines' names over a plot
60 px high, and the ladder page's chart kept light mode's grey text in dark mode."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.web.conftest import DESKTOP, PHONE, ServerThread, browser_page
from tests.web.test_ladder_weight import played_ladder

pytestmark = pytest.mark.slow  # a real ladder with bot processes

ENTRANTS = [f"entrant-{n}" for n in range(8)]
LEGEND = """() => {
  const chart = Chart.getChart(document.getElementById("ladder-chart"));
  const legend = chart.legend;
  return {lines: chart.data.datasets.length, named: legend.legendItems.length,
          inside: legend.legendHitBoxes.filter((b) => b.top + b.height <= legend.bottom).length,
          plot: chart.chartArea.height, text: Chart.defaults.color};
}"""


@pytest.fixture(scope="module")
def ladder_of_eight(tmp_path_factory) -> Path:
    """A real 2-player Oregon ladder whose 8 entrants each played."""
    return played_ladder(tmp_path_factory.mktemp("legends"), ENTRANTS, games=8)


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_ladder_chart_names_every_line_above_a_readable_plot(
    browser, ladder_of_eight, viewport
):
    with ServerThread(ladder_of_eight) as server, browser_page(browser, viewport) as page:
        page.goto(f"{server.url}/ladder")
        page.wait_for_function("() => Chart.getChart(document.getElementById('ladder-chart'))")
        legend = page.evaluate(LEGEND)
    assert legend["lines"] == len(ENTRANTS), legend
    assert legend["named"] == legend["inside"] == legend["lines"], legend
    assert legend["plot"] >= 150, legend


def test_the_ladder_chart_takes_dark_mode_colours(browser, ladder_of_eight):
    with (
        ServerThread(ladder_of_eight) as server,
        browser_page(browser, PHONE, color_scheme="dark") as page,
    ):
        page.goto(f"{server.url}/ladder")
        page.wait_for_function("() => Chart.getChart(document.getElementById('ladder-chart'))")
        assert page.evaluate(LEGEND)["text"] == "#c5cbd6"  # chart-theme.js's, not Chart.js's grey
