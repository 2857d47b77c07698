"""The JSON API: routes, the OpenAPI document, errors and strict parameters."""
