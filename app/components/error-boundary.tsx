import { isRouteErrorResponse, useRouteError } from 'react-router'
/** Router fallback page (spec section 8): "Unexpected Application Error!" with the status text or message. */
export function GeneralErrorBoundary() {
  const error = useRouteError()
  const detail = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : error instanceof Error ? error.message : 'Unknown error'
  return <div className="p-8"><h1>Unexpected Application Error!</h1><p>{detail}</p></div>
}
