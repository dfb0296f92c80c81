/**
 * The bar at the top of Intake's own pages (error pages, the dashboard): the product's mark
 * and name, a link home when there is one. Pure (props in, markup out), so the server's pages
 * and the dashboard render it alike.
 */
export function SiteHeader({ home }: { home?: string }) {
  const brand = (
    <>
      <span class="brand__mark" aria-hidden="true" />
      Intake
    </>
  );
  return (
    <header class="site-header">
      <div class="site-header__inner">
        {home ? (
          <a class="brand" href={home}>
            {brand}
          </a>
        ) : (
          <span class="brand">{brand}</span>
        )}
      </div>
    </header>
  );
}
