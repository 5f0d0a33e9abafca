package identity

import (
	"context"
	"errors"
	"fmt"

	"golang.org/x/oauth2"
)

// GoogleEndpoint is Google's OAuth 2.0 endpoint; tests point TokenURL at a local server.
var GoogleEndpoint = oauth2.Endpoint{
	AuthURL:   "https://accounts.google.com/o/oauth2/v2/auth",
	TokenURL:  "https://oauth2.googleapis.com/token",
	AuthStyle: oauth2.AuthStyleInParams,
}

// GoogleExchanger trades the popup's authorization code for an ID token.
type GoogleExchanger struct {
	config oauth2.Config
}

// NewGoogleExchanger uses the popup flow's redirect URI, "postmessage".
func NewGoogleExchanger(clientID, clientSecret string, endpoint oauth2.Endpoint) *GoogleExchanger {
	return &GoogleExchanger{config: oauth2.Config{
		ClientID: clientID, ClientSecret: clientSecret, Endpoint: endpoint,
		RedirectURL: "postmessage", Scopes: []string{"openid", "email", "profile"},
	}}
}

// ErrBadCode is a code Google would not exchange.
var ErrBadCode = errors.New("authorization code rejected")

// Exchange returns the ID token of the code.
func (g *GoogleExchanger) Exchange(ctx context.Context, code string) (string, error) {
	tok, err := g.config.Exchange(ctx, code)
	if err != nil {
		var re *oauth2.RetrieveError
		if errors.As(err, &re) {
			return "", fmt.Errorf("%w: %s", ErrBadCode, re.ErrorCode)
		}
		return "", err
	}
	idToken, _ := tok.Extra("id_token").(string)
	if idToken == "" {
		return "", fmt.Errorf("%w: no id_token in the answer", ErrBadCode)
	}
	return idToken, nil
}
