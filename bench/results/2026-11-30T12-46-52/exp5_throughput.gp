set terminal pngcairo noenhanced size 1100,520 font ",10"
set output '/work/main/bench/results/2026-11-30T12-46-52/exp5_throughput.png'
cd '/work/main/bench/results/2026-11-30T12-46-52'
set title 'Q1, Q6, Q9, Q18 at once, SF10, rig s3'
set xlabel 'seconds'
set ylabel 'MB/s over the link'
set yrange [0:115]
set grid
set key top right
plot 'exp5_throughput.dat' index 0 using 1:2 with lines lw 2 title 'read_ahead_depth = 0', 'exp5_throughput.dat' index 1 using 1:2 with lines lw 2 title 'defaults', 100 with lines dt 2 lc rgb 'gray' title 'link (100 MB/s)'
