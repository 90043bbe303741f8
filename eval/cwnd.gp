# Styles shared by every cwnd figure of make plots; eval/plot.sh loads this
# and then writes the plot commands, which depend on which traces a run has.

set encoding utf8
set grid back lc rgb '#dddddd'
set key bottom right box opaque samplen 2 spacing 1.1
set xlabel 'time since the flow started (s)'
set ylabel 'packets (MSS)'
set offsets 0, 0, graph 0.08, 0
set tics nomirror
set autoscale xfixmax
set border 3

set style line 1 lc rgb '#1f4e99' lw 1.6			# cwnd
set style line 2 lc rgb '#d62728' lw 2 dt 2			# Wmax
set style line 3 lc rgb '#2ca02c' pt 7 ps 1.1			# ssthresh at a loss
set style line 4 lc rgb '#ff7f0e' pt 9 ps 1.6			# undo target
