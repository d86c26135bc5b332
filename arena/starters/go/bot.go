// An arena bot in Go: a gRPC server of arena.bot.v1.Bot (proto/arena/bot/v1/bot.proto).
// Edit choose; `sh build.sh` builds ./bot, `arena validate .` builds and checks it.
package main

import (
	"context"
	"fmt"
	"math/rand"
	"net"
	"os"
	"os/signal"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	botv1 "arena/bot/v1"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

// Game is what this seat knows of one game: its StartGame and every event received so far.
type Game struct {
	Start   *botv1.StartGameRequest // game, seat, players, options, time control
	History []*botv1.GameEvent      // the game's public history as this seat saw it, oldest first
}

// choose returns the index of the action to play in request.LegalActions, before deadline.
// request.DecisionKind names the decision, request.View holds this seat's view
// (request.View.GetOregon(), GetOgallala() or GetMerkator()); docs/rules/ in the arena's
// repository explains every kind. This one picks at random.
func choose(game *Game, request *botv1.DecisionRequest, rng *rand.Rand, deadline time.Time) int {
	return rng.Intn(len(request.LegalActions))
}

type bot struct {
	botv1.UnimplementedBotServer
	name, version string
	games         []string
	mutex         sync.Mutex // handlers run concurrently: guards games and rng
	playing       map[string]*Game
	rng           *rand.Rand
}

func (b *bot) Handshake(context.Context, *botv1.HandshakeRequest) (*botv1.HandshakeReply, error) {
	return &botv1.HandshakeReply{
		Name: b.name, Version: b.version, Games: b.games,
		ProtocolVersion: botv1.ProtocolVersion_PROTOCOL_VERSION_1,
	}, nil
}

// StartGame begins a game. A process may play several games (and seats) at once and one
// after another: everything of a game is kept by its game_id.
func (b *bot) StartGame(_ context.Context, request *botv1.StartGameRequest) (*botv1.StartGameReply, error) {
	b.mutex.Lock()
	defer b.mutex.Unlock()
	b.playing[request.GameId] = &Game{Start: request}
	return &botv1.StartGameReply{}, nil
}

func (b *bot) Decide(_ context.Context, request *botv1.DecisionRequest) (*botv1.DecisionReply, error) {
	// The reply must arrive within the move limit plus what is left of the bank: keep a margin.
	budget := request.GetClock().GetMoveSeconds()
	deadline := time.Now().Add(time.Duration(budget * 0.8 * float64(time.Second)))
	b.mutex.Lock()
	defer b.mutex.Unlock()
	game := b.playing[request.GameId]
	if game == nil {
		return nil, status.Errorf(codes.FailedPrecondition, "no StartGame for game %q", request.GameId)
	}
	game.History = append(game.History, request.Events...)
	return &botv1.DecisionReply{
		DecisionNumber: request.DecisionNumber,
		ActionIndex:    int32(choose(game, request, b.rng, deadline)),
	}, nil
}

func (b *bot) EndGame(_ context.Context, request *botv1.EndGameRequest) (*botv1.EndGameReply, error) {
	b.mutex.Lock()
	defer b.mutex.Unlock()
	delete(b.playing, request.GameId) // request.Results has every seat's score and rank
	return &botv1.EndGameReply{}, nil
}

// refuseWrongToken fails every call whose x-arena-token is not ARENA_BOT_TOKEN.
func refuseWrongToken(token string) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, request interface{}, info *grpc.UnaryServerInfo,
		handler grpc.UnaryHandler) (interface{}, error) {
		md, _ := metadata.FromIncomingContext(ctx)
		if values := md.Get("x-arena-token"); len(values) != 1 || values[0] != token {
			return nil, status.Error(codes.Unauthenticated, "wrong or missing arena token")
		}
		return handler(ctx, request)
	}
}

// manifest reads a string (or, for games, the list) from bot.toml: the handshake answers
// with bot.toml's name, version and games.
func manifest(key string) []string {
	text, err := os.ReadFile("bot.toml")
	if err != nil {
		panic(err)
	}
	// an array may span lines (games = [ "oregon", ... ]), up to its closing bracket
	line := regexp.MustCompile(`(?m)^` + key + `\s*=\s*(\[[^\]]*\]|.*)$`).FindSubmatch(text)
	if line == nil {
		panic("bot.toml has no " + key)
	}
	var values []string
	for _, quoted := range regexp.MustCompile(`"([^"]*)"`).FindAllSubmatch(line[1], -1) {
		values = append(values, string(quoted[1]))
	}
	return values
}

func listen(address string) (net.Listener, error) {
	if path := strings.TrimPrefix(address, "unix:"); path != address {
		return net.Listen("unix", path)
	}
	return net.Listen("tcp", address)
}

func main() {
	seed, _ := strconv.ParseInt(os.Getenv("ARENA_BOT_SEED"), 10, 64) // same seed, same game
	b := &bot{
		name: manifest("name")[0], version: manifest("version")[0], games: manifest("games"),
		playing: map[string]*Game{}, rng: rand.New(rand.NewSource(seed)),
	}
	listener, err := listen(os.Getenv("ARENA_BOT_ADDRESS"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "error: cannot listen on ARENA_BOT_ADDRESS:", err)
		os.Exit(1)
	}
	server := grpc.NewServer(grpc.UnaryInterceptor(refuseWrongToken(os.Getenv("ARENA_BOT_TOKEN"))))
	botv1.RegisterBotServer(server, b)
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT)
	go func() { <-stop; server.Stop() }() // the arena ends a bot with SIGTERM: exit 0
	if err := server.Serve(listener); err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}
