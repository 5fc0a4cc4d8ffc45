"""The circular race track: ring arithmetic, lanes, home paths, routes."""

from __future__ import annotations

import pytest

from pbem.core.track import Lane, OffTrack, Ring, Spot, SpotKind, Track, TrackError, UnknownLane

PARCHEESI = Track(
    length=68,
    lanes=(Lane("1", 5, 68), Lane("2", 22, 17), Lane("3", 39, 34), Lane("4", 56, 51)),
    home_length=7,
    safe=frozenset({5, 12, 17, 22, 29, 34, 39, 46, 51, 56, 63, 68}),
)


def test_forward_wraps_round_the_ring() -> None:
    assert PARCHEESI.forward(66, 3) == 1
    assert PARCHEESI.forward(68, 1) == 1
    assert PARCHEESI.forward(5, 0) == 5
    assert PARCHEESI.forward(2, -3) == 67


def test_distance_is_forward_steps() -> None:
    assert PARCHEESI.distance(5, 68) == 63
    assert PARCHEESI.distance(22, 17) == 63
    assert PARCHEESI.distance(60, 2) == 10
    assert PARCHEESI.distance(9, 9) == 0


def test_squares_and_safe() -> None:
    assert list(PARCHEESI.squares())[:3] == [1, 2, 3] and len(PARCHEESI.squares()) == 68
    assert PARCHEESI.is_safe(12) and not PARCHEESI.is_safe(13)


def test_lap_and_finish_give_71_steps_from_entry_to_home() -> None:
    for lane in "1234":
        assert PARCHEESI.lap(lane) == 63
        assert PARCHEESI.finish(lane) == 71


def test_spot_walks_track_then_home_path_then_goal() -> None:
    assert PARCHEESI.spot("2", 0) == Spot(SpotKind.TRACK, 22)
    assert PARCHEESI.spot("2", 50) == Spot(SpotKind.TRACK, 4)
    assert PARCHEESI.spot("2", 63) == Spot(SpotKind.TRACK, 17)
    assert PARCHEESI.spot("2", 64) == Spot(SpotKind.PATH, 1, "2")
    assert PARCHEESI.spot("2", 70).name() == "H7"
    assert PARCHEESI.spot("2", 71).is_goal and PARCHEESI.spot("2", 71).name() == "HOME"
    with pytest.raises(OffTrack):
        PARCHEESI.spot("2", 72)
    with pytest.raises(OffTrack):
        PARCHEESI.spot("2", -1)


def test_progress_of_inverts_spot() -> None:
    for lane in "14":
        for progress in range(0, 72):
            assert PARCHEESI.progress_of(lane, PARCHEESI.spot(lane, progress)) == progress
    with pytest.raises(OffTrack):
        PARCHEESI.progress_of("1", Spot(SpotKind.PATH, 2, "3"))


def test_route_lists_every_spot_passed_and_the_landing_spot_last() -> None:
    route = PARCHEESI.route("1", 61, 4)
    assert [s.name() for s in route] == ["67", "68", "H1", "H2"]
    assert PARCHEESI.route("1", 10, 0) == ()


def test_route_needs_an_exact_count_to_the_goal() -> None:
    assert PARCHEESI.route("3", 68, 3)[-1].is_goal
    with pytest.raises(OffTrack):
        PARCHEESI.route("3", 68, 4)
    with pytest.raises(OffTrack):
        PARCHEESI.route("3", 10, -1)
    assert PARCHEESI.to_goal("3", 68) == 3


def test_lanes_by_square() -> None:
    assert [lane.name for lane in PARCHEESI.lanes_entering_at(22)] == ["2"]
    assert [lane.name for lane in PARCHEESI.lanes_exiting_at(68)] == ["1"]
    assert PARCHEESI.lanes_entering_at(23) == ()


def test_unknown_lane_and_bad_squares_are_refused() -> None:
    with pytest.raises(UnknownLane, match="9"):
        PARCHEESI.lane("9")
    with pytest.raises(TrackError):
        PARCHEESI.forward(69, 1)
    with pytest.raises(TrackError):
        Track(10, lanes=(Lane("a", 11, 3),))
    with pytest.raises(TrackError):
        Track(10, safe=frozenset({0}))
    with pytest.raises(TrackError):
        Track(10, lanes=(Lane("a", 1, 3), Lane("a", 2, 4)))


def test_a_plain_ring_without_lanes_still_counts() -> None:
    regatta = Track(19)
    assert regatta.forward(18, 3) == 2
    assert regatta.distance(18, 2) == 3


# --- Ring: a course numbered from its start line ----------------------------------


def test_a_ring_wraps_from_its_last_space_to_the_start() -> None:
    ring = Ring(19)
    assert ring.forward(0, 5) == 5
    assert ring.forward(16, 3) == 0
    assert ring.forward(16, 5) == 2
    assert [ring.crossings(16, steps) for steps in (2, 3, 5)] == [0, 1, 1]
    assert ring.crossings(0, 50) == 2


def test_a_ring_refuses_spaces_off_it_and_backward_moves() -> None:
    ring = Ring(24)
    assert ring.contains(0) and ring.contains(23) and not ring.contains(24)
    with pytest.raises(TrackError, match="24 is not a space of the ring 0..23"):
        ring.forward(24, 1)
    with pytest.raises(OffTrack, match="cannot move -1 steps"):
        ring.crossings(3, -1)
    with pytest.raises(TrackError, match="at least 2 spaces"):
        Ring(1)
