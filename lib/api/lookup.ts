/**
 * The read-only operations behind the popup's History, Search, Stuck funds and Routes views. SvcReadClient implements
 * them over HTTP; the popup implements them through the background worker, so its bundle carries no HTTP client and
 * no schemas.
 */
import type { CallOptions } from './http';
import type { GetIntentHistoryRequest, GetIntentHistoryResponse } from './schemas/history';
import type { SearchIntentsRequest, SearchIntentsResponse } from './schemas/intent';
import type {
  GetExactOutputRoutesRequest,
  GetExactOutputRoutesResponse,
  GetTokenPricesRequest,
  GetTokenPricesResponse,
} from './schemas/routes';

/** The lookup operations; each throws the typed errors of `./errors` (or, through the worker, UserFacingError). */
export interface LookupApi {
  getIntentHistory(request?: GetIntentHistoryRequest, options?: CallOptions): Promise<GetIntentHistoryResponse>;
  searchIntents(request: SearchIntentsRequest, options?: CallOptions): Promise<SearchIntentsResponse>;
  getExactOutputRoutes(request: GetExactOutputRoutesRequest, options?: CallOptions): Promise<GetExactOutputRoutesResponse>;
  getTokenPrices(request: GetTokenPricesRequest, options?: CallOptions): Promise<GetTokenPricesResponse>;
}
