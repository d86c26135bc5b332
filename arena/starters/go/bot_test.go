// The unit test of choose: every decision kind of every game, on the requests the arena sends
// there, recorded in fixtures/ (`arena fixtures --out fixtures` writes them again, e.g. after
// the arena's rules change). `sh test.sh` builds the bot and runs it.
package main

import (
	"math/rand"
	"os"
	"path/filepath"
	"testing"
	"time"

	botv1 "arena/bot/v1"

	"google.golang.org/protobuf/proto"
)

// load reads a fixture's wire bytes into message.
func load(t *testing.T, path string, message proto.Message) {
	data, err := os.ReadFile(path)
	if err == nil {
		err = proto.Unmarshal(data, message)
	}
	if err != nil {
		t.Fatal(err)
	}
}

func TestChooseAnswersEveryDecisionKindWithALegalIndex(t *testing.T) {
	folders, _ := filepath.Glob(filepath.Join("fixtures", "*", "*")) // GAME/KIND
	if len(folders) == 0 {
		t.Fatal("no fixtures in ./fixtures: run `arena fixtures --out fixtures`")
	}
	rng := rand.New(rand.NewSource(0))
	for _, folder := range folders {
		// One subtest per fixture: a failure, or a panic, names its GAME/KIND.
		t.Run(folder, func(t *testing.T) {
			// Received as from the arena: its StartGame, then its first Decide.
			start, request := &botv1.StartGameRequest{}, &botv1.DecisionRequest{}
			load(t, filepath.Join(folder, "start_game.binpb"), start)
			load(t, filepath.Join(folder, "decide.binpb"), request)
			game := &Game{Start: start, History: request.Events}
			index := choose(game, request, rng, time.Now().Add(time.Second))
			if index < 0 || index >= len(request.LegalActions) {
				t.Errorf("%s: index %d of %d actions", folder, index, len(request.LegalActions))
			}
		})
	}
}
