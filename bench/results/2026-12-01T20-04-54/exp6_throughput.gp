set terminal pngcairo noenhanced size 1100,520 font ",10"
set output '/work/main/bench/results/2026-12-01T20-04-54/exp6_throughput.png'
cd '/work/main/bench/results/2026-12-01T20-04-54'
set title 'TPC-H Q6 SF10, one CSV file, rig s3: link throughput'
set xlabel 'seconds'
set ylabel 'MB/s over the link'
set yrange [0:115]
set grid
set key top right
plot 'exp6_throughput.dat' index 0 using 1:2 with lines lw 2 title 'read_ahead_depth = 0', 'exp6_throughput.dat' index 1 using 1:2 with lines lw 2 title 'defaults', 100 with lines dt 2 lc rgb 'gray' title 'link (100 MB/s)'
