/** The methods `voicectl api` sends. A module of its own, so the action never imports values from its spec. */
export const API_METHODS = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'] as const;
