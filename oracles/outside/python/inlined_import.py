# The first part of every reproducer `convcheck repro --emit` writes (cmd/emit_python.hpp), after its constants: an
# import hook that loads the modules of SOURCES, the Python files the script carries, from their text in the script,
# before anything on sys.path. The driver (reproducer.py or external_reproducer.py) follows it.
import importlib.abc
import importlib.util
import sys


class Inlined(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports the modules of SOURCES from their text in this script, before anything on sys.path."""

    def find_spec(self, name, path=None, target=None):
        return importlib.util.spec_from_loader(name, self) if name in SOURCES else None

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        exec(compile(SOURCES[module.__name__], f"{module.__name__}.py (inlined)", "exec"), module.__dict__)


sys.meta_path.insert(0, Inlined())
