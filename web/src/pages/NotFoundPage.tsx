import { Link } from "react-router";

export function NotFoundPage() {
  return (
    <>
      <h1>Page not found</h1>
      <p>
        There is no such page. <Link to="/comparisons">Go to the comparisons</Link>.
      </p>
    </>
  );
}
