"""The one zone the project uses (``TIME_ZONE = "UTC"``, never another activated), as the
``tzdata`` package holds it, for Pyodide, whose standard library has no zone files: zoneinfo
reads ``tzdata.zoneinfo/UTC`` (copied from the system's ``/usr/share/zoneinfo/UTC``)."""
