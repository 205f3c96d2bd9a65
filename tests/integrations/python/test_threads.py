"""Threads sharing the module's objects: an Editor and a World used by many threads at once
(the C API serialises each handle's calls), and threads whose first call makes an array in a
script that never imported numpy (the module looks numpy up once, as it is imported)."""
import os
import subprocess
import sys
import textwrap
import threading

import numpy as np

import isoterra


def run_threads(target, count):
    errors = []

    def guarded(i):
        try:
            target(i)
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(repr(e))

    threads = [threading.Thread(target=guarded, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads), "a thread still runs after two minutes"
    assert not errors, errors[:3]


def hammer(editor, centre, rounds, threads=8):
    """Eight threads applying, undoing, redoing and reading; returns what each saw change."""
    net = [0] * threads

    def work(i):
        for r in range(rounds):
            what = (i * 7 + r * 3) % 5
            if what <= 1:
                editor.apply("sphere", (centre[0] + (i - 4) * 1.5, centre[1], centre[2] + (r % 5) * 1.5), 2.5,
                             mode="add" if what else "carve")
                net[i] += 1
            elif what == 2:
                net[i] -= editor.undo()
            elif what == 3:
                net[i] += editor.redo()
            else:
                assert np.isfinite(editor.field.sample(np.array([centre]))[0]) and editor.edit_count >= 0

    run_threads(work, threads)
    return sum(net)


def test_threads_applying_undoing_and_redoing_on_one_editor_keep_its_history_whole(tmp_path):
    for path in (None, str(tmp_path / "shared.db")):
        editor = isoterra.Editor(path, terrain="tutorial")
        ground = editor.field.ground(np.array([[0.0, 40.0]]))[0]
        centre = (0.0, ground - 1.0, 40.0)
        before = editor.field.sample(np.array([centre]))[0]
        net = hammer(editor, centre, 40 if path is None else 10)
        # Each call's effect is whole: what the threads saw applied and taken back adds up.
        assert net > 0 and editor.edit_count == net
        undone = 0
        while editor.undo():
            undone += 1
        assert undone == net and editor.field.sample(np.array([centre]))[0] == before
        assert all(editor.redo() for _ in range(net)) and editor.edit_count == net
        if path:
            del editor
            assert isoterra.Editor(path).edit_count == net  # the file holds the same history


def test_threads_moving_and_delivering_one_world_take_turns():
    world = isoterra.World(isoterra.Field.preset("tutorial"), view_distance=400.0, radius=3, threads=2)
    seen = [0] * 4

    def work(i):
        for r in range(60):
            world.set_focus((16.0 * i, 30.0, 40.0 + r % 3))
            for u in world.deliver(1.0):
                assert u.dropped or not u.visible or (u.faces.size == 0 or u.faces.max() < len(u.vertices))
                seen[i] += 1
            world.settled  # noqa: B018 - read while others deliver

    run_threads(work, 4)
    assert sum(seen) > 0


def test_threads_whose_first_call_returns_an_array_finish_without_numpy_imported_by_the_script():
    script = textwrap.dedent("""
        import threading
        import isoterra
        field = isoterra.Field.preset("tutorial")
        results = []
        def work(i):
            if i % 3 == 0:
                results.append(field.sample([[0.0, float(i), 0.0]]).shape)
            elif i % 3 == 1:
                results.append(field.lattice((0, 0, 0), (2, 2, 2), 1.0).shape)
            else:
                results.append(field.heightmap((0, 0), (4, 4), 1.0).shape)
        threads = [threading.Thread(target=work, args=(i,)) for i in range(12)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        print(len(results), sorted(set(results)))
    """)
    env = dict(os.environ)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "12 [(1,), (2, 2, 2), (5, 5)]"
