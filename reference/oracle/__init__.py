"""The conformance oracle: test vectors, the cases per paper, the property suite and the conform driver.

It sits above the algorithms (it runs them and reads their results); only the command line and the
conform kill matrix import it. Its modules, each importing only those listed before it (a DAG,
tests/test_oracle_package.py):

- :mod:`~reference.oracle.statistics`: the law statistics the cases share (DistanceTo, EmpiricalLoss,
  the tree's whitened errors).
- :mod:`~reference.oracle.properties`: the properties a case declares (Feasible, Holds, Sparse, ZeroNoise,
  Rate, Refuses) and the list conform runs.
- :mod:`~reference.oracle.vectors`: :class:`~reference.oracle.vectors.VectorCase`, running a case with
  every draw recorded, replay, the law check and the privacy audit.
- :mod:`~reference.oracle.cases`: the cases, one module per paper (core, lasso, erm_geometry,
  saddle_point, heavy_tailed, online), with the plain-data conform functions they name.
- :mod:`~reference.oracle.suite`: what each case declares, and :func:`~reference.oracle.suite.cases` /
  :func:`~reference.oracle.suite.write_vectors`, the declared cases as everything else reads them.
- :mod:`~reference.oracle.checks`: the claim, accounting and validation properties.
- :mod:`~reference.oracle.conform`: the driver behind ``python -m reference conform``.
"""
