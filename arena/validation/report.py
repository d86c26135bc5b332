"""What ``arena validate`` found: one ``Check`` per property of the bot, and the ``Report``."""

from __future__ import annotations

import enum
from dataclasses import asdict, dataclass, field, replace
from typing import Any


class Status(str, enum.Enum):
    PASS = "PASS"
    FAIL = "FAIL"
    WARN = "WARN"  # passed, but something deserves a look (e.g. a decision kind not reached)
    SKIP = "SKIP"  # not applicable to this bot, or impossible after an earlier failure


@dataclass(frozen=True)
class Check:
    """One check: its name, its status, what was measured or seen, and what to do about it."""

    name: str
    status: Status
    detail: str
    hint: str = ""
    # Where the bot's output during this check is kept, relative to ``--bot-logs``: a game's
    # directory or the process log ("" if not kept), so a failure's own log can be found.
    logs: str = ""

    @classmethod
    def passed(cls, name: str, detail: str) -> Check:
        return cls(name, Status.PASS, detail)

    @classmethod
    def failed(cls, name: str, detail: str, hint: str) -> Check:
        return cls(name, Status.FAIL, detail, hint)

    def kept_in(self, logs: str) -> Check:
        return replace(self, logs=logs)


@dataclass
class Report:
    bot: str
    seed: int
    # How the bot's process was confined: "bwrap", "none", or "remote" (running elsewhere).
    sandbox: str = "none"
    checks: list[Check] = field(default_factory=list)

    def add(self, check: Check) -> Check:
        self.checks.append(check)
        return check

    @property
    def passed(self) -> bool:
        """No check failed (warnings and skips do not fail a bot)."""
        return all(check.status is not Status.FAIL for check in self.checks)

    def to_json(self) -> dict[str, Any]:
        return {
            "bot": self.bot,
            "seed": self.seed,
            "sandbox": self.sandbox,
            "passed": self.passed,
            "checks": [{**asdict(check), "status": check.status.value} for check in self.checks],
        }
