"""The JSON API's edge the features share: its blueprint (``blueprint.py``), request parsing
(``request.py``, ``params.py``), errors (``errors.py``), the OpenAPI document's assembly
(``openapi.py``) and its route (``routes.py``). Each feature's routes and OpenAPI part are in
its own package."""
