"""The functions a formula may call (len rank c sum prod mean min max abs sqrt log exp genmean), as methods the
interpreter (`formula.Interpreter`) inherits: each takes the formula (for its place in messages) and the
evaluated arguments, and refuses arguments of the wrong kind as Malformed.
"""

from fractions import Fraction

from verifier_check import arithmetic, bounds
from verifier_check.algebra import NESTED, ONE, ZERO, Value, const
from verifier_check.limits import Malformed, Undecided

BUILTINS = ("len", "rank", "c", "sum", "prod", "mean", "min", "max", "abs", "sqrt", "log", "exp", "genmean")


class ClassRef:
    """A class, by its index."""

    __slots__ = ("index",)

    def __init__(self, index):
        self.index = index

    def __eq__(self, other):
        return isinstance(other, ClassRef) and other.index == self.index

    def __hash__(self):
        return hash(("class", self.index))


class Functions:
    """The builtins of the formula language (`self.det`, `self.sign` and `self.means` come from the interpreter)."""

    def call_len(self, f, args):
        """len(Y) or the length of a list."""
        if len(args) != 1 or not isinstance(args[0], (frozenset, tuple)):
            raise Malformed(f"{f.where}: len() takes the set Y or a list")
        return const(len(args[0]))

    def call_rank(self, f, args):
        """A class's 0-based position."""
        if len(args) != 1 or not isinstance(args[0], ClassRef):
            raise Malformed(f"{f.where}: rank() takes one class")
        return const(args[0].index)

    def call_c(self, f, args):
        """c(yh, y): the determinate cost."""
        if self.det is None or len(args) != 2 or not all(isinstance(a, ClassRef) for a in args):
            raise Malformed(f"{f.where}: c(yh, y) takes two classes, and needs 'cost' or 'cost_matrix'")
        return self.det(args[0].index, args[1].index)

    def values(self, f, args, name):
        """f([a, b]) or f(a, b): a non-empty list of numbers."""
        values = list(args[0]) if len(args) == 1 and isinstance(args[0], tuple) else args
        if not values or not all(isinstance(v, Value) for v in values):
            raise Malformed(f"{f.where}: {name}() takes a non-empty list of numbers")
        return values

    def call_sum(self, f, args):
        """The sum of a list."""
        out = ZERO
        for v in self.values(f, args, "sum"):
            out = out + v
        return out

    def call_prod(self, f, args):
        """The product of a list."""
        out = ONE
        for v in self.values(f, args, "prod"):
            out = out * v
        return out

    def call_mean(self, f, args):
        """The arithmetic mean of a list."""
        values = self.values(f, args, "mean")
        return self.call_sum(f, [tuple(values)]).scaled(Fraction(1, len(values)))

    def call_min(self, f, args, want=-1):
        """The least of a list (max: the greatest), by exact comparison."""
        values = self.values(f, args, "min" if want < 0 else "max")
        best = values[0]
        for v in values[1:]:
            if self.sign(f, v - best) == want:
                best = v
        return best

    def call_max(self, f, args):
        """The greatest of a list."""
        return self.call_min(f, args, 1)

    def one(self, f, args, name):
        """The one number argument of abs, sqrt, log, exp."""
        if len(args) != 1 or not isinstance(args[0], Value):
            raise Malformed(f"{f.where}: {name}() takes one number")
        return args[0]

    def call_abs(self, f, args):
        """|x|."""
        x = self.one(f, args, "abs")
        return -x if self.sign(f, x) < 0 else x

    def call_sqrt(self, f, args):
        """The square root of x >= 0."""
        return arithmetic.power(self.one(f, args, "sqrt"), Fraction(1, 2), f.where)

    def call_log(self, f, args):
        """The natural logarithm of x > 0."""
        return arithmetic.log(self.one(f, args, "log"), f.where)

    def call_exp(self, f, args):
        """e^x."""
        return arithmetic.exp(self.one(f, args, "exp"), f.where)

    def call_genmean(self, f, args):
        """The generalized mean (sum x^p / n)^(1/p) of values >= 0; p = 0 is the geometric mean."""
        if len(args) != 2 or not isinstance(args[0], Value) or not isinstance(args[1], tuple):
            raise Malformed(f"{f.where}: genmean takes (p, list)")
        p, xs = args[0], self.values(f, [args[1]], "genmean")
        key = (p.key(), tuple(sorted(v.key() for v in xs)))
        if key not in self.means:
            self.means[key] = self.genmean(f, p, xs)
        return self.means[key]

    def genmean(self, f, p, xs):
        """Eq. 12-13 exactly; with an exponent in the parameters, one atom whose lemmas read it whole."""
        if any(not x.symbolic() and bounds.sign(x, f.where) < 0 for x in xs):
            raise Malformed(f"{f.where}: genmean of a negative value")
        if all(x.key() == xs[0].key() for x in xs):
            return xs[0]  # the mean of equal values, for every exponent
        if p.symbolic() or any(x.symbolic() for x in xs):
            if any(x.symbolic() for x in xs) or p.rational() is None and not p.symbolic():
                raise Undecided(f"{f.where}: a power mean of values that depend on the parameters")
            atom = "genmean(" + ";".join([p.key()] + sorted(x.key() for x in xs)) + ")"
            NESTED.setdefault(atom, ("genmean", p, tuple(xs)))
            return Value({((atom, 1),): Fraction(1)})
        q = p.rational()
        if q is None:
            raise Undecided(f"{f.where}: a power mean with an irrational exponent")
        nonzero = [x for x in xs if bounds.sign(x, f.where) != 0]
        if not nonzero:
            return ZERO
        if q == 0:
            return ZERO if len(nonzero) < len(xs) else arithmetic.power(self.call_prod(f, [tuple(xs)]),
                                                                      Fraction(1, len(xs)), f.where)
        if q < 0 and len(nonzero) < len(xs):
            raise Malformed(f"{f.where}: genmean with exponent {q} < 0 of values that include 0 is undefined")
        total = ZERO
        for x in nonzero:
            total = total + arithmetic.power(x, q, f.where)
        return arithmetic.power(total.scaled(Fraction(1, len(xs))), 1 / q, f.where)
