"""Power-mean set costs, c_Y(y) = M_p(c_ŷ(y) : ŷ ∈ Y) (the paper's Eq. 12-14), decided without enumeration:
the lemmas (`lemmas`, `PowerMeanLemmas`), which lemma can speak to a property, read from its definition's
shape (`shapes`), and the float search for the few sets worth building when the lemmas leave one open
(`search`).

Owns: proofs by the power-mean inequality. May import what `engines` may.
"""
