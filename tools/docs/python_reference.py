"""docs/reference/python-api.md: the `isoterra` Python module's docstrings (pybind11 puts
each function's signature on its docstring's first line), in the module's own order.
Usage: python_reference.py BUILD_DIR OUT.md  (imports BUILD_DIR/python/isoterra)"""
import inspect
import sys

from mdtext import escape, fence, generated_note, write_page


def split_doc(obj):
    """(signature, prose) of a pybind11 docstring; signature "" when it has none."""
    doc = inspect.cleandoc(obj.__doc__ or "")
    first, _, rest = doc.partition("\n")
    if "(" in first and ")" in first:
        return first, rest.strip()
    return "", doc


def member_lines(cls_name, name, member):
    lines = []
    if isinstance(member, property):
        lines.append(f"### {cls_name}.{name}\n")
        lines.append("Read-only property. " + escape((member.__doc__ or "").strip()) + "\n")
        return lines
    if isinstance(member, (staticmethod, classmethod)):
        member = member.__func__
    if not callable(member):
        return lines
    signature, prose = split_doc(member)
    if name == "__init__" and not signature:
        return lines  # no constructor of its own: made by the module (Field.preset, isoterra.mesh)
    lines.append(f"### {cls_name}.{'__init__' if name == '__init__' else name}\n")
    if signature:
        # pybind11 spells the instance "self: isoterra.Field"; the reader calls it on one.
        signature = signature.replace(f"self: isoterra.{cls_name}, ", "").replace(f"self: isoterra.{cls_name}", "")
        if name == "__init__":
            signature = signature.replace("__init__(", f"isoterra.{cls_name}(").replace(" -> None", "")
        lines.append(fence(signature, "python", skip="a signature from the module, not a program"))
    if prose:
        lines.append(escape(prose) + "\n")
    return lines


def main():
    build_dir, out_path = sys.argv[1], sys.argv[2]
    sys.path.insert(0, f"{build_dir}/python")
    import isoterra  # noqa: E402 (from the build tree)

    lines = ["# Python API reference\n", generated_note("the `isoterra` module's docstrings"),
             "`import isoterra` (build tree: `PYTHONPATH=build/python`, Debian's /usr/bin/python3 and numpy). "
             "The guide: [Python](../guides/python.md).\n", escape(isoterra.__doc__ or "") + "\n", "## Constants\n"]
    classes, functions = [], []
    for name, value in vars(isoterra).items():
        if name.startswith("_"):
            continue
        if inspect.isclass(value):
            classes.append((name, value))
        elif callable(value):
            functions.append((name, value))
        else:
            lines.append(f"- `isoterra.{name}` = `{value!r}`")
    lines.append("")
    for name, fn in functions:
        signature, prose = split_doc(fn)
        lines.append(f"## isoterra.{name}\n")
        lines.append(fence(signature or name, "python", skip="a signature from the module, not a program"))
        lines.append(escape(prose) + "\n")
    for name, cls in classes:
        lines.append(f"## isoterra.{name}\n")
        lines.append(escape(inspect.cleandoc(cls.__doc__ or "")) + "\n")
        if issubclass(cls, BaseException):
            lines.append(f"A subclass of `{cls.__mro__[1].__name__}`.\n")
            continue
        for member_name, member in vars(cls).items():
            if member_name.startswith("_") and member_name != "__init__":
                continue
            lines += member_lines(name, member_name, member)
    write_page(out_path, "\n".join(lines))


if __name__ == "__main__":
    main()
