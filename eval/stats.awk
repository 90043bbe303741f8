# The median and range of a set of values, and whether two ranges overlap,
# shared by the reports' awk programs: a script reads this file and puts it
# before its program's text (one program, as -f and program text do not mix
# in POSIX awk).  A value ">X" is a lower bound, X or more.

# num(x): x as a number, a lower bound's ">" dropped
function num(x) { return x ~ /^>/ ? substr(x, 2) + 0 : x + 0 }

# sortn(arr, c): arr[1..c] in ascending order of num(); the range is then
# arr[1] to arr[c]
function sortn(arr, c,    i, j, t) {
	for (i = 1; i <= c; i++)
		for (j = i + 1; j <= c; j++)
			if (num(arr[j]) < num(arr[i])) { t = arr[i]; arr[i] = arr[j]; arr[j] = t }
}

# median(arr, c): the median of the sorted arr[1..c]: the middle value as
# it is, or the mean of the middle two, ">" before it when either is a
# lower bound
function median(arr, c,    lo, hi) {
	if (c % 2)
		return arr[(c + 1) / 2]
	lo = arr[c / 2]; hi = arr[c / 2 + 1]
	if (lo ~ /^>/ || hi ~ /^>/)
		return ">" (num(lo) + num(hi)) / 2
	return (num(lo) + num(hi)) / 2
}

# overlap(lo1, hi1, lo2, hi2): the ranges [lo1, hi1] and [lo2, hi2] (of
# the runs of two algorithms) share a value: these runs show no measurable
# difference between the two
function overlap(lo1, hi1, lo2, hi2) {
	return num(lo1) <= num(hi2) && num(lo2) <= num(hi1)
}
