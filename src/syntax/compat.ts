// chevrotain 12+ calls Object.groupBy (ES2024), which Node 20 lacks; this standard-conforming
// fallback is installed only where the method is missing, before the parser is first built.
type GroupBy = <T>(
  items: Iterable<T>,
  key: (item: T, index: number) => PropertyKey,
) => Record<PropertyKey, T[]>;

const objectWithGroupBy = Object as unknown as { groupBy?: GroupBy };
if (typeof objectWithGroupBy.groupBy !== "function") {
  objectWithGroupBy.groupBy = (items, key) => {
    const groups: Record<PropertyKey, unknown[]> = Object.create(null);
    let index = 0;
    for (const item of items) {
      const name = key(item, index++);
      const group = groups[name];
      if (group) group.push(item);
      else groups[name] = [item];
    }
    return groups as never;
  };
}
