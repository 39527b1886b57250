/** The CSP nonce of the current document, for <Scripts>, <ScrollRestoration> and inline scripts. */
import { createContext, useContext } from 'react'

const NonceContext = createContext<string | undefined>(undefined)
export const NonceProvider = NonceContext.Provider
/** The nonce on the server; undefined in the browser, where it is not needed after hydration. */
export const useNonce = () => useContext(NonceContext)
