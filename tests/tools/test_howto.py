"""docs/porting.md's "How to add" list, followed in a scratch copy of the tree: a new
make variable is one row of config.table and reaches the range check,
`make config-limits`, `make help` and config.h; a new board is a folder
under board/ plus its RAM_MB row, and its image builds and boots."""
import os
import shutil
import subprocess
import unittest

from test_docs import ROOT

SCRATCH = os.path.join(ROOT, "build", "howto")


def copy_tree():
    """The source tree (no build/, no .git) under build/howto/tree."""
    shutil.rmtree(SCRATCH, ignore_errors=True)
    tree = os.path.join(SCRATCH, "tree")
    shutil.copytree(ROOT, tree, symlinks=True,
                    ignore=lambda d, names: [n for n in names if d == ROOT and n in ("build", ".git")])
    # The packages are installed already; the stamp says so to make.
    os.makedirs(os.path.join(tree, "build"))
    open(os.path.join(tree, "build", ".bootstrap-ok"), "w").close()
    return tree


def make(tree, *args):
    return subprocess.run(["make", "--no-print-directory", "-s"] + list(args), cwd=tree,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=240)


def add_row(tree, row):
    with open(os.path.join(tree, "config.table"), "a") as f:
        f.write(row + "\n")


class HowToAdd(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tree = copy_tree()

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(SCRATCH, ignore_errors=True)

    def test_a_make_variable_is_one_row(self):
        add_row(self.tree, "HOWTO_VAR      any              7            1..9           a row the how-to check adds")
        r = make(self.tree, "config-limits")
        self.assertEqual(r.returncode, 0, r.stdout)
        self.assertIn("HOWTO_VAR 1 9", r.stdout.splitlines())
        r = make(self.tree, "HOWTO_VAR=10", "config-limits")
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("HOWTO_VAR=10 is out of range: HOWTO_VAR must be 1..9 on versatilepb "
                      "(a row the how-to check adds)", r.stdout)
        self.assertIn("HOWTO_VAR", make(self.tree, "help").stdout.splitlines()[-1])
        for args, value in (((), "7"), (("HOWTO_VAR=3",), "3")):
            r = make(self.tree, "O=build/var", *args, "build/var/include/generated/config.h")
            self.assertEqual(r.returncode, 0, r.stdout)
            with open(os.path.join(self.tree, "build/var/include/generated/config.h")) as f:
                self.assertIn("#define CONFIG_HOWTO_VAR %s\n" % value, f.read())

    def test_a_board_is_a_folder_and_its_ram_row(self):
        board = os.path.join(self.tree, "board", "howto")
        shutil.copytree(os.path.join(self.tree, "board", "versatilepb"), board)
        mk = os.path.join(board, "board.mk")
        with open(mk) as f:
            text = f.read().replace("board/versatilepb/", "board/howto/")
        with open(mk, "w") as f:
            f.write(text)
        r = make(self.tree, "BOARD=howto", "all")
        self.assertIn("has no row for RAM_MB on howto", r.stdout)
        add_row(self.tree, "RAM_MB         howto            64           8..256         a copy of versatilepb")
        self.assertIn("RAM_MB 8 256", make(self.tree, "BOARD=howto", "config-limits").stdout.splitlines())
        r = make(self.tree, "-j2", "BOARD=howto", "QEMU_TIMEOUT=60", "run")
        self.assertEqual(r.returncode, 0, r.stdout[-2000:])
        self.assertIn("Lokal on howto:", r.stdout)
        self.assertIn("RAM: 64 MiB", r.stdout)
        # The ordinary runners find it from its folder alone: check-target's
        # board list has it, and its runner runs list lines on it.
        r = subprocess.run(["bash", "-c", ". tests/lib/images.sh && qemu_boards"], cwd=self.tree,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=60)
        self.assertIn("howto", r.stdout.split(), r.stdout)
        lst = os.path.join(SCRATCH, "howto.list")
        with open(lst, "w") as f:
            f.write("test_highmem | qemu | * |  | 0 |  | \n"
                    "test_sched   | qemu | * |  | 0 |  | \n")
        tap = os.path.join(SCRATCH, "howto.tap")
        r = subprocess.run(["tests/target/run.sh", lst, tap], cwd=self.tree,
                           env=dict(os.environ, TARGET_BOARDS="howto"), stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=300)
        with open(tap) as f:
            results = [ln for ln in f if ln.startswith(("ok ", "not ok "))]
        self.assertEqual(r.returncode, 0, r.stdout[-2000:])
        self.assertGreater(len(results), 5, r.stdout[-2000:])
        self.assertTrue(all(ln.startswith("ok ") and " howto: " in ln for ln in results), results)

    def test_a_board_file_missing_or_undeclared_is_named(self):
        board = os.path.join(self.tree, "board", "howto2")
        shutil.copytree(os.path.join(self.tree, "board", "versatilepb"), board)
        add_row(self.tree, "RAM_MB         howto2           64           8..256         a second copy")
        os.remove(os.path.join(board, "board_marker.h"))
        r = make(self.tree, "BOARD=howto2", "all")
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("board/howto2/board_marker.h is missing", r.stdout)
        shutil.copy(os.path.join(self.tree, "board", "versatilepb", "board_marker.h"), board)
        mk = os.path.join(board, "board.mk")
        with open(mk) as f:
            text = f.read()
        with open(mk, "w") as f:
            f.write(text.replace("BOARD_IRQ_INLINE := yes", ""))
        r = make(self.tree, "BOARD=howto2", "config-limits")
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("board/howto2/board_irq.h is there but board/howto2/board.mk does not declare it",
                      r.stdout)


if __name__ == "__main__":
    unittest.main()
