"""What a design must achieve: per property, hold, fail, or no demand; and which demands are firm.

By default a setting asks what its column of the paper's Table VIII says: every necessary (N) and desirable (D)
property must hold, firmly; undesirable (U) properties are avoided where possible (a wish, reported when it
cannot be met); the analyst's choices (A) are left free. `--with P` / `--without P` make a firm demand that P
holds / fails, `--free P` drops a demand; contradicting a necessary property is a usage error, since a scheme
that breaks it cannot fit the setting at all.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from verifier.errors import UsageError
from verifier.properties import BY_ID, Level, resolve
from verifier.properties.settings import LEVELS, TABLE_VIII


@dataclass(frozen=True)
class Demand:
    """One demand on the design: a property must hold or fail, firmly or if possible, and why."""
    pid: str
    holds: bool  # True: the property must hold; False: it must fail
    firm: bool  # firm demands make the design impossible when unmet; wishes are kept where they can be
    why: str  # "necessary in filtering", "asked with --with", ...

    @property
    def label(self) -> str:
        """The demand in words, as "P3 (name) holds"."""
        name = BY_ID[self.pid].name
        return f"{self.pid} ({name}) {'holds' if self.holds else 'fails'}"


@dataclass
class Request:
    """What the design must do for a setting: its demands, firm ones and wishes."""
    setting: str
    demands: list[Demand] = field(default_factory=list)

    @property
    def firm(self) -> list[Demand]:
        """The demands a design must meet."""
        return [d for d in self.demands if d.firm]

    @property
    def wishes(self) -> list[Demand]:
        """The demands kept only where they can be."""
        return [d for d in self.demands if not d.firm]

    def describe(self) -> str:
        """The request in one line: the setting and each demand (wishes marked "if possible")."""
        parts = [d.label + ("" if d.firm else " (if possible)") for d in self.demands]
        return f"{self.setting}: " + "; ".join(parts)


def make_request(setting: str, with_: list[str] = (), without: list[str] = (), free: list[str] = ()) -> Request:
    """The request for a setting from Table VIII, with --with, --without and --free applied: necessary and desirable
    properties must hold, undesirable ones should fail. Raises UsageError for an unknown setting, a property named
    twice, or a necessary one freed or refused."""
    if setting not in TABLE_VIII:
        raise UsageError(f"unknown setting {setting!r}; expected filtering or choice")
    levels = TABLE_VIII[setting]
    named = {"--with": [_pid(n, "--with") for n in with_], "--without": [_pid(n, "--without") for n in without],
             "--free": [_pid(n, "--free") for n in free]}
    seen: dict[str, str] = {}
    for option, pids in named.items():
        for pid in pids:
            if pid in seen and seen[pid] != option:
                raise UsageError(f"{pid} is named by both {seen[pid]} and {option}; name it once")
            seen[pid] = option
            if levels[pid] == Level.N and option != "--with":
                raise UsageError(f"{pid} ({BY_ID[pid].name}) is necessary in the {setting} setting (Table VIII), "
                                 f"so {option} {pid} would design a scheme that cannot fit it")
    demands = []
    for pid, level in levels.items():
        option = seen.get(pid)
        if option == "--free":
            continue
        if option in ("--with", "--without"):
            demands.append(Demand(pid, option == "--with", True, f"asked with {option}"))
        elif level in (Level.N, Level.D):
            demands.append(Demand(pid, True, True, f"{LEVELS[level]} in the {setting} setting"))
        elif level == Level.U:
            demands.append(Demand(pid, False, False, f"undesirable in the {setting} setting"))
    return Request(setting, demands)


def _pid(name: str, option: str) -> str:
    pid = resolve(name)
    if pid is None:
        raise UsageError(f"{option}: unknown property {name!r}; expected P1..P10 or a name such as "
                         "'mistake aversion' (verify explain lists them)")
    return pid
