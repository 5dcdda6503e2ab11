"""The ten properties, as data: what each one says (`catalogue`), the language they are written in
(`statement`), and how the filtering and choice settings judge them (`settings`, the paper's Table VIII).

Owns: the definitions every engine, the checker and every report read. May import: nothing else of the
package (it is the bottom of the pipeline, beside `errors`).
"""

from verifier.properties.catalogue import BY_ID, PROPERTIES, resolve
from verifier.properties.settings import LEVELS, TABLE_VIII, Level, Setting
from verifier.properties.statement import (
                                           Atom,
                                           Both,
                                           Compare,
                                           Implies,
                                           Possible,
                                           Property,
                                           Quantifier,
                                           QuantifierKind,
                                           Term,
)

__all__ = ["Atom", "BY_ID", "Both", "Compare", "Implies", "LEVELS", "Level", "PROPERTIES", "Possible", "Property",
           "Quantifier", "QuantifierKind", "Setting", "TABLE_VIII", "Term", "resolve"]
