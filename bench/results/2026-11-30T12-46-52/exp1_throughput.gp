set terminal pngcairo noenhanced size 1100,520 font ",10"
set output '/work/main/bench/results/2026-11-30T12-46-52/exp1_throughput.png'
cd '/work/main/bench/results/2026-11-30T12-46-52'
set title 'TPC-H Q6 SF10, one Parquet file, rig s3: link throughput'
set xlabel 'seconds'
set ylabel 'MB/s over the link'
set yrange [0:115]
set grid
set key top right
plot 'exp1_throughput.dat' index 0 using 1:2 with lines lw 2 title 'read_ahead_depth = 0', 'exp1_throughput.dat' index 1 using 1:2 with lines lw 2 title 'defaults', 100 with lines dt 2 lc rgb 'gray' title 'link (100 MB/s)'
