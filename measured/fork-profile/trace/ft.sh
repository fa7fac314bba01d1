T=/sys/kernel/tracing
[ -e $T/trace ] || mount -t tracefs nodev $T
echo 0 > $T/tracing_on
echo function_graph > $T/current_tracer
echo ${3:-kernel_clone} > $T/set_graph_function
echo ${2:-6} > $T/max_graph_depth
echo 1 > $T/options/funcgraph-abstime
echo 0 > $T/options/funcgraph-irqs 2>/dev/null
echo 1 > $T/options/funcgraph-tail 2>/dev/null
echo 60000 > $T/buffer_size_kb
echo 1 > $T/tracing_on
./forkt ${1:-20}
echo 0 > $T/tracing_on
grep -c . $T/trace
cat $T/trace
