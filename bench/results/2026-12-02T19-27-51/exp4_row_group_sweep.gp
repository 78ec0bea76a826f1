set terminal pngcairo noenhanced size 1100,520 font ",10"
set output '/work/main/bench/results/2026-12-02T19-27-51/exp4_row_group_sweep.png'
cd '/work/main/bench/results/2026-12-02T19-27-51'
set title 'TPC-H Q6 SF10: time per row-group layout'
set logscale x
set xlabel 'rows per row group'
set ylabel 'seconds'
set yrange [0:*]
set grid
set key top left
plot 'exp4_row_group_sweep.dat' using 1:2 with linespoints lw 2 pt 7 title 'Sluice, rig (remote)', \
     '' using 1:3 with linespoints lw 2 pt 5 title 'Sluice, local (hot)', \
     '' using 1:4 with linespoints lw 2 pt 9 title 'DuckDB 1.5.6, local (hot)'
