"""Third-party mechanisms (OpenDP, IBM's diffprivlib) conformed to the reference's building blocks.

The adapters (``opendp_adapters``, ``diffprivlib_adapters``) give each library's mechanism the
signature ``python -m reference conform`` calls; the tests (marker ``thirdparty``, tox env
``thirdparty``) run the law check and the privacy audit on them and are skipped where the
libraries are not installed. docs/conformance.md has the measured table.
"""
