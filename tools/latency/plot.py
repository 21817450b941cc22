"""PNG plots through gnuplot (Debian's gnuplot-nox)."""
import os
import subprocess
import tempfile


def _gnuplot(script):
    try:
        subprocess.run(["gnuplot"], input=script, text=True, check=True)
    except FileNotFoundError:
        raise SystemExit("lokal-latency: no gnuplot for --plot (Debian: apt-get install gnuplot-nox)")
    except subprocess.CalledProcessError as e:
        raise SystemExit("lokal-latency: gnuplot failed (status %d)" % e.returncode)


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
