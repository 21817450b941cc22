"""PNG plots through gnuplot (Debian's gnuplot-nox)."""
import os
import subprocess
import tempfile


class PlotError(Exception):
    """gnuplot missing or failing: one line for the user."""


def _gnuplot(script):
    # gnuplot's own errors take several lines, and a PNG it could not send
    # to its file goes to stdout: keep both, and say the gist in one line.
    try:
        p = subprocess.run(["gnuplot"], input=script, text=True, capture_output=True,
                           errors="replace")
    except FileNotFoundError:
        raise PlotError("no gnuplot for --plot (Debian: apt-get install gnuplot-nox)")
    if p.returncode != 0:
        said = [ln.strip() for ln in p.stderr.splitlines() if ln.strip()]
        raise PlotError("gnuplot failed (status %d)%s"
                        % (p.returncode, ": " + said[-1] if said else ""))


def cdf(path, series, title):
    """series: [(label, [widths ns])] -> latency CDF, one curve each."""
    with tempfile.TemporaryDirectory() as tmp:
        _cdf(path, series, title, tmp)


def _cdf(path, series, title, tmp):
    plots = []
    for k, (label, widths) in enumerate(series):
        dat = os.path.join(tmp, "s%d.dat" % k)
        s = sorted(widths)
        with open(dat, "w") as f:
            for i, w in enumerate(s):
                # A width of 0 (shorter than the input can time) has no place
                # on the log axis: the curve starts at the share of those.
                if w:
                    f.write("%g %g\n" % (w / 1000.0, (i + 1) / len(s)))
        plots.append("'%s' using 1:2 with steps title '%s'" % (dat, label.replace("'", "")))
    _gnuplot("set terminal pngcairo size 800,500 noenhanced\nset output '%s'\n"
             "set title '%s'\nset xlabel 'latency (us)'\nset ylabel 'fraction of wake-ups'\n"
             "set logscale x\nset grid\nset key right bottom\nset yrange [0:1.02]\nplot %s\n"
             % (path, title, ", ".join(plots)))


def switch_vs_maps(path, points):
    """points: [(kmaps, median width ns, p99 width ns)]."""
    with tempfile.TemporaryDirectory() as tmp:
        _switch_vs_maps(path, points, os.path.join(tmp, "sw.dat"))


def _switch_vs_maps(path, points, dat):
    with open(dat, "w") as f:
        for k, med, p99 in sorted(points):
            f.write("%d %g %g\n" % (k, med, p99))
    _gnuplot("set terminal pngcairo size 800,500 noenhanced\nset output '%s'\n"
             "set title 'Switch marker pulse width vs kmaps restored'\n"
             "set xlabel 'kmaps restored at the switch'\nset ylabel 'pulse width (ns)'\nset grid\n"
             "plot '%s' using 1:2 with linespoints title 'median', '' using 1:3 with linespoints title 'p99'\n"
             % (path, dat))


def histogram(path, series, title, bucket_ns):
    """series: [(label, [(bucket start ns, count)])] -> counts per bucket on a
    log scale, as cyclictest users plot them; one line each."""
    with tempfile.TemporaryDirectory() as tmp:
        plots = []
        for k, (label, rows) in enumerate(series):
            dat = os.path.join(tmp, "h%d.dat" % k)
            with open(dat, "w") as f:
                for start, count in rows:
                    # A log axis has no 0: an empty bucket is left out of the steps.
                    if count:
                        f.write("%g %d\n" % (start + bucket_ns / 2.0, count))
            plots.append("'%s' using 1:2 with histeps lw 2 title '%s'" % (dat, label.replace("'", "")))
        _gnuplot("set terminal pngcairo size 800,500 noenhanced\nset output '%s'\n"
                 "set title '%s'\nset xlabel 'latency (ns; instructions under -icount shift=0)'\n"
                 "set ylabel 'periods'\nset logscale y\nset yrange [0.8:*]\nset grid\n"
                 "set key right top\nplot %s\n" % (path, title.replace("'", ""), ", ".join(plots)))
