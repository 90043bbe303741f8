# Styles shared by the figures of make study; eval/study-report.sh loads
# this and then writes the plot commands (x: the points of one family, by
# index, labelled from the data).

set grid back lc rgb '#dddddd'
set key below horizontal samplen 2 noenhanced
set tics nomirror
set border 3
set yrange [0:*]
set bars small

# the algorithms, in the order of STUDY_ALGS
set style line 1 lc rgb '#d62728' lw 1.8 pt 5 ps 1.0		# bpf_bic_2611
set style line 2 lc rgb '#1f4e99' lw 1.8 pt 7 ps 1.0		# bpf_bic, the seed
set style line 3 lc rgb '#2ca02c' lw 1.8 pt 9 ps 1.2		# the kernel's bic
set style line 4 lc rgb '#9467bd' lw 1.8 pt 11 ps 1.2		# bpf_bic_restore
set style line 5 lc rgb '#ff7f0e' lw 1.8 pt 13 ps 1.2		# cubic
set style line 6 lc rgb '#555555' lw 1.8 pt 3 ps 1.2

set style line 11 lc rgb '#1f4e99' lw 1.2			# cwnd
set style line 12 lc rgb '#d62728' lw 1.5 dt 2			# Wmax
set style line 13 lc rgb '#555555' lw 1.2 dt 3			# BDP + queue
set style line 14 lc rgb '#2ca02c' pt 7 ps 0.6			# undo, recovered
set style line 15 lc rgb '#000000' pt 6 ps 0.8			# undo, not recovered
set style line 16 lc rgb '#ff7f0e' lw 5				# stall
