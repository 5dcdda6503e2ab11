"""verify: prove or refute the properties of extended cost matrices for set-valued predictions."""

__version__ = "0.1.0"
