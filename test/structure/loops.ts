/** The loops of a graph of names, for the structure tests' import and layer graphs. */

/**
 * Each group of nodes that reach one another (a strongly connected component of two or
 * more, or one node that points at itself), its names sorted, in the order Tarjan's
 * algorithm closes them; so every loop is in some group.
 */
export function loops(graph: Map<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    let top: string;
    do {
      top = stack.pop()!;
      onStack.delete(top);
      group.push(top);
    } while (top !== node);
    if (group.length > 1 || (graph.get(node) ?? []).includes(node)) groups.push(group.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return groups;
}
