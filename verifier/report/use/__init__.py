"""What `verify decide` and `verify evaluate` say: the optimal sets and how ties were resolved (`decisions`),
each classifier's scores and a sweep's curves (`scores`), the classifiers x measures table for a console or a
paper (`score_table`), the paired comparisons and the Friedman test (`comparison`), and how these results show
themselves in a notebook (`notebook`). Their pictures (cost curves, the critical difference diagram) are in
`report.figures`.

Owns: the use report's text, JSON, CSV and tables. Decides nothing: every number comes from `using`.
May import: `using` and everything below it, `report.figures` and `report`'s shared writers; never
`designing` or `report.design`.
"""
