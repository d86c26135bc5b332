// The unit test of choose: every decision kind of every game, on the requests the arena sends
// there, recorded in fixtures/ (`arena fixtures --out fixtures` writes them again, e.g. after
// the arena's rules change). `sh test.sh` builds the bot and runs it.
#define BOT_UNIT_TEST
#include "bot.cc"

#include <filesystem>

namespace fs = std::filesystem;

// Reads a fixture's wire bytes into message.
static void load(const fs::path& path, google::protobuf::Message& message) {
  std::ifstream file(path, std::ios::binary);
  if (!file || !message.ParseFromIstream(&file))
    throw std::runtime_error("cannot read " + path.string());
}

int main() {
  if (!fs::is_directory("fixtures")) {
    std::cerr << "no fixtures in ./fixtures: run `arena fixtures --out fixtures`\n";
    return 1;
  }
  std::mt19937_64 rng(0);
  int kinds = 0, failures = 0;
  for (const auto& game : fs::directory_iterator("fixtures")) {
    for (const auto& kind : fs::directory_iterator(game.path())) {
      // Received as from the arena: its StartGame, then its first Decide.
      Game state;
      v1::DecisionRequest request;
      load(kind.path() / "start_game.binpb", state.start);
      load(kind.path() / "decide.binpb", request);
      state.history.assign(request.events().begin(), request.events().end());
      ++kinds;
      int index;
      try {
        index = choose(state, request, rng, Clock::now() + std::chrono::seconds(1));
      } catch (const std::exception& error) {  // named with its fixture; the others still run
        std::cerr << "FAIL " << kind.path().string() << ": choose threw " << error.what() << "\n";
        ++failures;
        continue;
      }
      if (index < 0 || index >= request.legal_actions_size()) {
        std::cerr << "FAIL " << kind.path().string() << ": index " << index << " of "
                  << request.legal_actions_size() << " actions\n";
        ++failures;
      }
    }
  }
  std::cout << (failures ? "FAILED" : "ok") << ": choose on " << kinds << " decision kinds, "
            << failures << " illegal answer(s)\n";
  return failures || !kinds ? 1 : 0;
}
