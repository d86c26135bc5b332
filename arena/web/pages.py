"""What each page shows, as JSON-ready dicts: the API returns them as they are, and the HTML
pages render the same dicts, so a page and its JSON twin never disagree."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from arena.storage.models import GameOutcome
from arena.storage.read_only import GameFilter, ReadOnlyDatabase
from arena.storage.sprt import BASE, NEW, load_test
from arena.web.boards import BoardCache
from engine.registry import game_names

RECENT_GAMES = 20
TOURNAMENT_GAMES = 100  # the newest, on a tournament's page
# A page's rows per board: the top, read first; a board of 211 bots made the leaderboard 1.6 MB
# (outside review K). `rows=all` shows every row; the JSON gives every row unless asked.
BOARD_PAGE_ROWS = 50


def rows_shown(raw: str, default: int | None) -> int | None:
    """The rows per board that a request's ``rows`` asks for: "" the ``default``, "all" every
    row (None), else a whole number from 1 (BadRequest otherwise)."""
    if raw == "":
        return default
    if raw == "all":
        return None
    if not raw.isascii() or not raw.isdigit() or len(raw) > 18 or int(raw) < 1:
        raise BadRequest("rows must be a whole number from 1, or all")
    return int(raw)


class NotFound(LookupError):
    pass


class BadRequest(ValueError):
    """A request's parameter that means nothing (the web answers 400 with these words)."""


class Pages:
    def __init__(self, database: ReadOnlyDatabase) -> None:
        self.database = database
        self.boards = BoardCache(database)

    def leaderboard(
        self,
        game: str | None = None,
        players: int | None = None,
        tournament: int | None = None,
        all_versions: bool = False,
        rows: int | None = None,
        bot: str | None = None,
    ) -> dict[str, Any]:
        """Every board (game type x player count) with rated games, or the ones asked for.
        Old versions of a bot are left out unless ``all_versions``: they are still rated (and
        their games count for their opponents), just not shown. Each board's first ``rows``
        rows (None: all), or with ``bot`` the rows whose bot's name holds it (any case), at
        their places; ``total_rows`` counts them all, and the bars' scale is all rows'."""
        played = self.database.games_played()
        boards = []
        for entry in played:
            if game and entry["game"] != game or players and entry["num_players"] != players:
                continue
            board = self.boards.board(entry["game"], entry["num_players"], tournament, all_versions)
            if not board["rows"]:
                continue
            board["scale"] = _interval_scale(board["rows"])
            board["total_rows"] = len(board["rows"])
            if bot:
                wanted = bot.casefold()
                board["rows"] = [r for r in board["rows"] if wanted in r["bot"].casefold()]
                if not board["rows"]:
                    continue
            elif rows is not None:
                board["rows"] = board["rows"][:rows]
            boards.append(board)
        return {
            "filters": {
                "game": game,
                "players": players,
                "tournament": tournament,
                "all_versions": all_versions,
                "rows": rows,
                "bot": bot,
            },
            "choices": {
                "games": game_names(),
                "players": sorted({e["num_players"] for e in played}),
                "tournaments": [
                    {"id": t["id"], "name": t["name"]} for t in self.database.tournaments()
                ],
            },
            "boards": boards,
        }

    def bots(self) -> dict[str, Any]:
        return {"bots": self.database.bots()}

    def bot(self, name: str) -> dict[str, Any]:
        bot = self.database.bot(name)
        if bot is None:
            raise NotFound(f"no bot called {name!r}")
        ids = bot.pop("version_ids")
        bot["head_to_head"] = self.database.head_to_head(ids)
        pauses = self.database.ladder_pauses(ids)
        for version in bot["versions"]:
            version["paused"] = pauses.get(version["id"], [])
        bot["recent_games"] = self.database.games(GameFilter(bot=name, limit=RECENT_GAMES))["games"]
        return bot

    def tournaments(self) -> dict[str, Any]:
        return {"tournaments": self.database.tournaments()}

    def tournament(self, tournament_id: int) -> dict[str, Any]:
        tournament = self.database.tournament(tournament_id)
        if tournament is None:
            raise NotFound(f"no tournament {tournament_id}")
        players = int(tournament["settings"].get("players", 2))
        board = self.boards.board(tournament["game"], players, tournament_id)
        names = {row["version_id"]: row["bot"] for row in board["rows"]}
        tournament["standings"] = board["rows"]
        tournament["crosstable"] = [
            cell
            | {"bot": names[cell["version_id"]], "opponent": names[cell["opponent_version_id"]]}
            for cell in board["crosstable"]
        ]
        if tournament["settings"].get("sprt"):
            tournament["sprt"] = self.sprt(tournament_id, tournament["entrants"])
        listing = self.database.games(GameFilter(tournament=tournament_id, limit=TOURNAMENT_GAMES))
        tournament["games"] = listing["games"]
        tournament["games_total"] = listing["total"]  # the page links to the rest
        tournament["progress"] |= _outlook(tournament)
        with self.database.session() as session:
            tournament["running"] = self.database.games_in_play(session, tournament_id)
        return tournament

    def sprt(self, tournament_id: int, entrants: list[dict[str, Any]]) -> dict[str, Any]:
        """Where an `arena sprt` test stands, from its stored games as `arena sprt` counts them:
        NEW is the entrant at position 0, BASE at 1."""
        with self.database.session() as session:
            paired, _ = load_test(session, tournament_id)
        test = paired.test
        lower, upper = test.bounds
        return {
            "new": entrants[NEW]["bot"],
            "base": entrants[BASE]["bot"],
            "elo0": test.elo0,
            "elo1": test.elo1,
            "alpha": test.alpha,
            "beta": test.beta,
            "pairs": test.pairs,
            "counts": list(test.counts),
            "llr": round(test.llr, 3),
            "lower": round(lower, 3),
            "upper": round(upper, 3),
            "status": test.status,  # "H1": NEW is stronger, "H0": it is not, or "continue"
        }

    def games(self, wanted: GameFilter) -> dict[str, Any]:
        listing = self.database.games(wanted)
        listing["filters"] = {
            "game": wanted.game,
            "bot": wanted.bot,
            "tournament": wanted.tournament,
            "outcome": wanted.outcome,
        }
        listing["choices"] = {
            "games": game_names(),
            "bots": self.database.bot_names(),  # not bots(): it counts every seat
            "tournaments": [
                {"id": t["id"], "name": t["name"]} for t in self.database.tournaments()
            ],
            "outcomes": [outcome.value for outcome in GameOutcome],
        }
        return listing

    def game(self, game_id: int) -> dict[str, Any]:
        game = self.database.game(game_id)
        if game is None:
            raise NotFound(f"no game {game_id}")
        return game


def _outlook(tournament: dict[str, Any]) -> dict[str, Any]:
    """What the progress bar adds to the counts: whether an SPRT test was decided (it stops
    before its schedule's end), and while the tournament runs, how many games it plays at a
    time and about how long the rest will take, at the pace of its newest games (as the CLI's
    progress bar estimates it)."""
    progress = tournament["progress"]
    decided = tournament.get("sprt", {}).get("status") in ("H0", "H1")
    outlook: dict[str, Any] = {"decided": decided, "at_a_time": 0, "seconds_left": None}
    if progress["scheduled"] is None:  # a ladder: no end to foresee (its page is /ladder)
        return outlook
    remaining = max(progress["scheduled"] - progress["finished"], 0)
    if tournament["state"] != "running" or decided or remaining == 0:
        return outlook
    outlook["at_a_time"] = min(int(tournament["settings"].get("concurrency", 1)), remaining)
    finished = sorted(datetime.fromisoformat(game["finished_at"]) for game in tournament["games"])
    if finished:
        first = (
            finished[0] if len(finished) > 1 else datetime.fromisoformat(tournament["created_at"])
        )
        pace = (finished[-1] - first).total_seconds() / max(len(finished) - 1, 1)
        outlook["seconds_left"] = round(pace * remaining)
    return outlook


def _interval_scale(rows: list[dict[str, Any]]) -> dict[str, float]:
    """The rating range the interval bars of one board are drawn on (rounded out to 100s): every
    known end and every point (a one-sided rating's point lies beyond its known end)."""
    values = [
        value
        for row in rows
        if row["batch"]
        for value in (row["batch"]["low"], row["batch"]["rating"], row["batch"]["high"])
        if value is not None  # the unknown end of a one-sided rating
    ] or [1400.0, 1600.0]
    low, high = min(values), max(values)
    return {"low": (low // 100) * 100, "high": (high // 100 + 1) * 100}


def held_back(game: dict[str, Any]) -> str | None:
    """Why the game's replay is not shown yet (``ReadOnlyDatabase.deal_in_play``), or None."""
    held = game.get("held")
    if held is None:
        return None
    return (
        f"game {game['id']}'s replay is held back until every seat rotation of its deal is "
        f"played ({rotations_played(held)}): they are dealt the same cards"
    )


def rotations_played(held: dict[str, int]) -> str:
    """ "1 of 2 rotations played so far": a held deal's progress, counted alike on a stored
    game's page and on a game in play's (this one included in the rotations, not yet played)."""
    return f"{held['played']} of {held['rotations']} rotations played so far"
