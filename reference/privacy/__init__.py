"""Privacy building blocks every paper uses: mechanisms, ledger, accountant, tree aggregation.

These modules know no paper.
"""
