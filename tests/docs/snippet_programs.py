"""The C++ and C snippets as programs: the built tree installed into a scratch prefix, one
CMake project with a program per page and language (C++ against isoterra::isoterra as
examples/consumer builds, C against libisoterra_c as the C API's test does), all built in
one go; then each run in its scratch folder."""
import re
import subprocess

import snippet_pages

CMAKE_HEAD = """cmake_minimum_required(VERSION 3.25)
project(isoterra_snippets LANGUAGES C CXX)
set(CMAKE_CXX_STANDARD 20)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
set(CMAKE_C_STANDARD 99)
find_package(isoterra 0.1 REQUIRED)
"""


def target(index):
    return f"s{index:03d}"


def project_text(programs, prefix):
    text = CMAKE_HEAD
    for i, group in enumerate(programs):
        name = target(i)
        text += f"add_executable({name} {name}.{group.lang})\n"
        if group.lang == "cpp":
            text += f"target_link_libraries({name} PRIVATE isoterra::isoterra)\n"
        else:
            text += f'target_include_directories({name} PRIVATE "{prefix}/include")\n'
            text += f'target_link_libraries({name} PRIVATE "{prefix}/lib/libisoterra_c.so" m)\n'
    return text


def failures(output):
    """{target: its error lines} from Ninja's output (built with -k 0)."""
    found, current = {}, None
    for line in output.split("\n"):
        m = re.match(r"FAILED: (?:CMakeFiles/)?(s\d{3})\b", line)
        if m:
            current = m[1]
            found.setdefault(current, [])
        elif re.match(r"\[\d+/\d+\] |ninja: ", line):
            current = None
        elif current and not line.startswith("/usr/bin/"):
            found[current].append(line)
    return found


def build_all(programs, args, where):
    """{id(group): the program's path, or an error naming the page and line}."""
    where.mkdir(parents=True)
    prefix = where / "prefix"
    install = subprocess.run(["cmake", "--install", args.build, "--prefix", str(prefix)],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if install.returncode:
        return {id(g): f"{g.page}: cmake --install {args.build} failed\n{install.stdout[-2000:]}" for g in programs}
    for i, group in enumerate(programs):
        (where / f"{target(i)}.{group.lang}").write_text(snippet_pages.program(group.running()))
    (where / "CMakeLists.txt").write_text(project_text(programs, prefix))
    configure = subprocess.run(["cmake", "-S", str(where), "-B", str(where / "build"), "-G", "Ninja",
                                f"-DCMAKE_PREFIX_PATH={prefix}", "-DCMAKE_BUILD_TYPE=Release",
                                f"-DCMAKE_CXX_FLAGS={args.cxx_flags}", f"-DCMAKE_EXE_LINKER_FLAGS={args.linker_flags}"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if configure.returncode:
        return {id(g): f"{g.page}: configuring the snippets' programs failed\n{configure.stdout[-2000:]}" for g in programs}
    build = subprocess.run(["cmake", "--build", str(where / "build"), "-j", str(args.jobs), "--", "-k", "0"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    failed = failures(build.stdout)
    built = {}
    for i, group in enumerate(programs):
        exe = where / "build" / target(i)
        if target(i) in failed or not exe.exists():
            built[id(group)] = compile_error(group, failed.get(target(i), build.stdout.split("\n")))
        else:
            built[id(group)] = exe
    return built


def compile_error(group, lines):
    """The first error (it names the page and line, by #line) and the lines after it."""
    first = next((i for i, line in enumerate(lines) if re.search(r"\berror\b", line)), 0)
    head = lines[first] if lines else "does not build"
    if not head.startswith(group.page):
        head = f"{group.page}:{group.running()[0].line}: {head}"
    return "\n".join([head] + lines[first + 1:first + 20])


def run_program(group, built, scratch, env, timeout_s):
    """None when it ran and exited 0, else the error."""
    if isinstance(built, str):
        return built
    where = f"{group.page}:{group.running()[0].line}"
    try:
        done = subprocess.run([str(built)], cwd=scratch, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, timeout=timeout_s)
    except subprocess.TimeoutExpired:
        return f"{where}: still running after {timeout_s} s"
    if done.returncode == 0:
        return None
    how = f"killed by signal {-done.returncode}" if done.returncode < 0 else f"exit {done.returncode}"
    lines = done.stdout.rstrip().split("\n")
    return "\n".join([f"{where}: the program's {how}"] + lines[-25:])
