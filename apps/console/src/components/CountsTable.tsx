import { formatCount, sortedCounts } from '../format';

/** A breakdown (name -> count) as a small table, largest first. */
export function CountsTable(props: { title: string; counts: Record<string, number> | undefined; name?: string }) {
  const rows = sortedCounts(props.counts);
  return (
    <section class="card">
      <h3>{props.title}</h3>
      {rows.length === 0 ? (
        <p class="muted">None yet.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">{props.name ?? 'Name'}</th>
              <th scope="col" class="num">
                Count
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map(([name, count]) => (
              <tr key={name}>
                <td>{name}</td>
                <td class="num">{formatCount(count)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
