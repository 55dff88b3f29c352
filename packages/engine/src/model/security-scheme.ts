export type OAuthFlow = {
  readonly authorizationUrl?: string
  readonly tokenUrl?: string
  readonly refreshUrl?: string
  readonly scopes: Readonly<Record<string, string>>
}

export type SecurityScheme = { readonly description?: string } & (
  | { readonly type: 'http'; readonly scheme: string; readonly bearerFormat?: string }
  | { readonly type: 'apiKey'; readonly name: string; readonly in: 'query' | 'header' | 'cookie' }
  | {
      readonly type: 'oauth2'
      readonly flows: Readonly<
        Partial<
          Record<'implicit' | 'password' | 'clientCredentials' | 'authorizationCode', OAuthFlow>
        >
      >
    }
  | { readonly type: 'openIdConnect'; readonly openIdConnectUrl: string }
)
