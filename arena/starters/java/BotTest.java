// The unit test of choose: every decision kind of every game, on the requests the arena sends
// there, recorded in fixtures/ (`arena fixtures --out fixtures` writes them again, e.g. after
// the arena's rules change). `sh test.sh` builds the bot and runs it.

import arena.bot.v1.DecisionRequest;
import arena.bot.v1.StartGameRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.Stream;

public final class BotTest {
  public static void main(String[] args) throws IOException {
    Path fixtures = Path.of("fixtures");
    if (!Files.isDirectory(fixtures)) {
      System.err.println("no fixtures in ./fixtures: run `arena fixtures --out fixtures`");
      System.exit(1);
    }
    List<Path> kinds; // fixtures/GAME/KIND
    try (Stream<Path> found = Files.walk(fixtures, 2)) {
      kinds = found.filter(path -> fixtures.relativize(path).getNameCount() == 2)
          .sorted().collect(Collectors.toList());
    }
    Random random = new Random(0);
    int failures = 0;
    for (Path kind : kinds) {
      // Received as from the arena: its StartGame, then its first Decide.
      Bot.Game game = new Bot.Game(
          StartGameRequest.parseFrom(Files.readAllBytes(kind.resolve("start_game.binpb"))));
      DecisionRequest request =
          DecisionRequest.parseFrom(Files.readAllBytes(kind.resolve("decide.binpb")));
      game.history.addAll(request.getEventsList());
      int index;
      try {
        index = Bot.choose(game, request, random, System.nanoTime() + 1_000_000_000L);
      } catch (RuntimeException error) { // named with its fixture; the others still run
        System.err.printf("FAIL %s: choose threw %s%n", kind, error);
        error.printStackTrace();
        failures++;
        continue;
      }
      if (index < 0 || index >= request.getLegalActionsCount()) {
        System.err.printf("FAIL %s: index %d of %d actions%n", kind, index,
            request.getLegalActionsCount());
        failures++;
      }
    }
    System.out.printf("%s: choose on %d decision kinds, %d illegal answer(s)%n",
        failures > 0 ? "FAILED" : "ok", kinds.size(), failures);
    System.exit(failures > 0 || kinds.isEmpty() ? 1 : 0);
  }
}
