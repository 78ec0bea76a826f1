set terminal pngcairo noenhanced size 1100,520 font ",10"
set output '/work/main/bench/results/2026-11-30T12-46-52/exp1_timeline.png'
cd '/work/main/bench/results/2026-11-30T12-46-52'
set terminal pngcairo noenhanced size 1400,400 font ",9"
set output '/work/main/bench/results/2026-11-30T12-46-52/exp1_timeline.png'
set title 'TPC-H Q6 SF10, defaults: REGULAR and ASYNC threads (from SET trace_file)'
set xlabel 'seconds'
set ytics ('REGULAR 0' 12, 'REGULAR 1' 11, 'ASYNC 0' 10, 'ASYNC 1' 9, 'ASYNC 2' 8, 'ASYNC 3' 7, 'ASYNC 4' 6, 'ASYNC 5' 5, 'ASYNC 6' 4, 'ASYNC 7' 3, 'scan task 0' 2, 'scan task 1' 1)
set yrange [0.4:12.6]
set grid x
set key outside top center horizontal
plot 'exp1_timeline.dat' index 0 using (($1+$2)/2):3:(($2-$1)/2):(0.38) with boxxyerror fs solid 0.8 noborder lc rgb '#1f77b4' title 'fetch', 'exp1_timeline.dat' index 1 using (($1+$2)/2):3:(($2-$1)/2):(0.38) with boxxyerror fs solid 0.8 noborder lc rgb '#2ca02c' title 'decode', 'exp1_timeline.dat' index 2 using (($1+$2)/2):3:(($2-$1)/2):(0.38) with boxxyerror fs solid 0.8 noborder lc rgb '#9467bd' title 'plan file', 'exp1_timeline.dat' index 3 using (($1+$2)/2):3:(($2-$1)/2):(0.38) with boxxyerror fs solid 0.8 noborder lc rgb '#d62728' title 'parked'
