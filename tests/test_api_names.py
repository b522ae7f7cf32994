"""The package's lazy names stay what they are whatever was imported first: importing a subpackage must never
replace a public function of the same name (`bvl.explain` was once hidden by a package called `explain`)."""
import bertviz_lite as bvl


def test_every_public_name_is_what_its_module_defines_after_every_subpackage_is_imported():
    import importlib

    for module in {m for m in bvl._EXPORTS}:
        importlib.import_module(f"bertviz_lite.{module}")
    importlib.import_module("bertviz_lite.tour")
    for name, module in bvl._MODULE_OF.items():
        assert getattr(bvl, name) is getattr(importlib.import_module(f"bertviz_lite.{module}"), name), name
    assert callable(bvl.explain) and callable(bvl.trace)
