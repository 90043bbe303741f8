# Styles shared by the figures of make study; eval/study-report.sh loads
# this and then writes the plot commands.

set grid back lc rgb '#dddddd'
set key below horizontal samplen 2 noenhanced
set xlabel 'reordering (%)' offset 0,0.5
set logscale x
set xrange [0.4:6.5]
set xtics ('0.5' 0.5, '1' 1, '2' 2, '5' 5)
set tics nomirror
set border 3
set yrange [0:*]
set bars small

set style line 1 lc rgb '#1f4e99' lw 1.8 pt 7 ps 1.0		# bpf_bic, the fix
set style line 2 lc rgb '#d62728' lw 1.8 pt 5 ps 1.0		# bpf_bic_2611
set style line 3 lc rgb '#2ca02c' lw 1.8 pt 9 ps 1.2		# the kernel's bic
set style line 4 lc rgb '#9467bd' lw 1.8 pt 11 ps 1.2

set style line 11 lc rgb '#1f4e99' lw 1.2			# cwnd
set style line 12 lc rgb '#d62728' lw 1.5 dt 2			# Wmax
set style line 13 lc rgb '#555555' lw 1.2 dt 3			# BDP + queue
