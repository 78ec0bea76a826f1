// PNG plots of the suite's results with gnuplot (Debian's gnuplot-nox): the link's throughput
// over time (the reference's network graph), the row-group sweep curve, and the timeline of the
// REGULAR and ASYNC threads of one run from its Chrome trace.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

function gnuplot(directory, name, script) {
  const file = path.join(directory, `${name}.gp`);
  fs.writeFileSync(file, `set terminal pngcairo noenhanced size 1100,520 font ",10"\nset output '${path.join(directory, name)}.png'\n${script}`);
  try {
    execFileSync('gnuplot', [file], { stdio: ['ignore', 'ignore', 'pipe'] });
    return `${name}.png`;
  } catch (error) {
    console.error(`plot ${name} failed: ${error.stderr || error.message}`);
    return null;
  }
}

// series: [{title, samples: [{t, linkMBps}]}]
export function throughputPlot(directory, name, title, series, linkMBps) {
  const blocks = series.map((s) => s.samples.filter((p) => Number.isFinite(p.linkMBps)).map((p) => `${p.t} ${p.linkMBps}`).join('\n'));
  fs.writeFileSync(path.join(directory, `${name}.dat`), blocks.join('\n\n\n') + '\n');
  const plots = series.map((s, i) => `'${name}.dat' index ${i} using 1:2 with lines lw 2 title '${s.title}'`);
  return gnuplot(directory, name, `cd '${directory}'
set title '${title}'
set xlabel 'seconds'
set ylabel 'MB/s over the link'
set yrange [0:${Math.ceil(linkMBps * 1.15)}]
set grid
set key top right
plot ${plots.join(', ')}, ${linkMBps} with lines dt 2 lc rgb 'gray' title 'link (${linkMBps} MB/s)'
`);
}

// rows: [{rows, remote, local, duckdb}] seconds per layout
export function sweepPlot(directory, name, title, rows) {
  fs.writeFileSync(path.join(directory, `${name}.dat`),
    rows.map((r) => `${r.rows} ${r.remote ?? 'NaN'} ${r.local ?? 'NaN'} ${r.duckdb ?? 'NaN'}`).join('\n') + '\n');
  return gnuplot(directory, name, `cd '${directory}'
set title '${title}'
set logscale x
set xlabel 'rows per row group'
set ylabel 'seconds'
set yrange [0:*]
set grid
set key top left
plot '${name}.dat' using 1:2 with linespoints lw 2 pt 7 title 'Sluice, rig (remote)', \\
     '' using 1:3 with linespoints lw 2 pt 5 title 'Sluice, local (hot)', \\
     '' using 1:4 with linespoints lw 2 pt 9 title 'DuckDB 1.5.6, local (hot)'
`);
}

// The trace's spans, one row per thread lane: fetches, decodes, file plans, parks; and the
// in-flight controller's target per host over time (a counter in the trace), on the right axis.
export function timelinePlot(directory, name, title, tracePath) {
  const trace = JSON.parse(fs.readFileSync(tracePath, 'utf8'));
  const names = new Map();
  for (const e of trace.traceEvents) if (e.ph === 'M' && e.name === 'thread_name') names.set(e.tid, e.args.name);
  const lanes = [...names.keys()].sort((a, b) => a - b);
  const row = new Map(lanes.map((tid, i) => [tid, lanes.length - i]));
  const kinds = ['fetch', 'decode', 'plan file', 'parked'];
  const blocks = kinds.map((kind) => trace.traceEvents
    .filter((e) => e.ph === 'X' && e.name === kind && row.has(e.tid))
    .map((e) => `${e.ts / 1e6} ${(e.ts + Math.max(e.dur, 1)) / 1e6} ${row.get(e.tid)}`).join('\n') || '0 0 -10');
  const target = trace.traceEvents.filter((e) => e.ph === 'C' && e.name === 'in-flight target per host')
    .sort((a, b) => a.ts - b.ts).map((e) => `${e.ts / 1e6} ${e.args.value}`);
  blocks.push(target.join('\n') || '0 0');
  fs.writeFileSync(path.join(directory, `${name}.dat`), blocks.join('\n\n\n') + '\n');
  const tics = lanes.map((tid) => `'${names.get(tid)}' ${row.get(tid)}`).join(', ');
  const colors = ['#1f77b4', '#2ca02c', '#9467bd', '#d62728'];
  const plots = kinds.map((kind, i) => `'${name}.dat' index ${i} using (($1+$2)/2):3:(($2-$1)/2):(0.38) with boxxyerror fs solid 0.8 noborder lc rgb '${colors[i]}' title '${kind}'`);
  if (target.length) {
    plots.push(`'${name}.dat' index ${kinds.length} using 1:2 axes x1y2 with steps lw 2 lc rgb 'black' title 'requests in flight per host: target'`);
  }
  return gnuplot(directory, name, `cd '${directory}'
set terminal pngcairo noenhanced size 1400,${Math.max(400, 40 + lanes.length * 26)} font ",9"
set output '${path.join(directory, name)}.png'
set title '${title}'
set xlabel 'seconds'
set ytics (${tics})
set yrange [0.4:${lanes.length + 0.6}]
set y2range [0:*]
set y2tics
set y2label 'in-flight target'
set grid x
set key outside top center horizontal
plot ${plots.join(', ')}
`);
}
