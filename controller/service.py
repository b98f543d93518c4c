"""The live table: ``tableref run --config FILE``.

One thread owns all state: it takes sensor edges and commands off one queue,
journals each input before the engine sees it, journals the rulings (with
their outbox rows) before anything is published, and fires the engine's
deadlines. MQTT runs in paho's thread and only enqueues commands; delivery
reads the outbox, so nothing is lost while the broker is away.

With ``[hardware] backend = "gpio"`` (or an injected edge source) the source's
callbacks only enqueue :class:`EdgeEvent` objects; the loop thread runs them
through the same :class:`SensorPipeline` as the harness (buttons, health,
fusion) and applies what comes out like any input. The pipeline's timers are
serviced beside the engine's, and the engine's deadline ticks are held back by
the fusion's look-ahead, so a toss dated 29.9 s that is only recognised when
the coin comes down still beats a 30 s window.

Engine ("match") time is ``mono_ns + offset``. The offset is zero on a fresh
journal; after a restart it is set so that match time resumes where the
journal left off, and the gap is recorded as a ruling for the TD.
"""

from __future__ import annotations

import dataclasses
import json
import queue
import sys
import threading
from dataclasses import dataclass
from typing import Any, TextIO

from controller.camera import CAMERA_SENSOR, CAMERA_SENSORS, TableCamera
from controller.commands import Command, CommandError, parse_command, result
from controller.config import Backend, Config, topic_base
from controller.errors import InputError, RejectedInput, TablerefError
from controller.gamemodule import decode, decode_match, encode
from controller.games.registry import module_for
from controller.journal import Journal
from controller.model import Event, Resumed, Ruling, Tick
from controller.mqtt import BrokerTarget, MqttLink
from controller.replay import NEW_MATCH, compare, new_match_payload, rebuild
from controller.runtime import Runtime
from controller.sdnotify import Notifier
from controller.sensors.buttons import Press
from controller.sensors.edges import EdgeEvent, EdgeSource
from controller.sensors.health import HealthEvent
from controller.sensors.pipeline import SensorPipeline
from controller.timebase import Clock, MonotonicClock, seconds_to_ns

POLL_S = 0.25  # how often the loop looks at the stop flag when idle
LINK_CATCH_UP_NS = 1_000_000_000
"""After a sensor link (the microcontroller bridge) comes back, how long the
sensor pipeline's timers wait for the edges the board kept while it was away:
they arrive late, with their own older times."""


@dataclass(frozen=True, slots=True)
class RawCommand:
    """A command as it arrived: verb from the topic, payload bytes."""

    verb: str
    payload: bytes


@dataclass(frozen=True, slots=True, kw_only=True)
class HeldCommand(Event):
    """A command received at ``t_ns`` (``mono_ns``), queued in time order with
    the sensor events: the fusion hands on a toss up to its look-ahead late,
    and a command must not overtake sensor events dated before it."""

    raw: RawCommand


class TableService:
    """A live table. ``submit_event`` and ``submit_command`` are thread-safe;
    everything else runs in the thread that calls :meth:`run`."""

    def __init__(
        self,
        config: Config,
        *,
        clock: Clock | None = None,
        notifier: Notifier | None = None,
        out: TextIO = sys.stderr,
        edge_source: EdgeSource | None = None,
    ) -> None:
        """``edge_source`` replaces the backend's own (a fake source in tests)."""
        self.config = config
        self.clock: Clock = clock or MonotonicClock()
        self.notifier = notifier or Notifier()
        self.out = out
        self.base = topic_base(config.venue, config.table)
        self.module = module_for(config.game)
        self.engine = self.module.engine()
        # SimpleQueue: its get() wakes the loop sooner than Queue's Condition.
        self.queue: queue.SimpleQueue[Event | EdgeEvent | RawCommand] = queue.SimpleQueue()
        self.offset_ns = 0
        self.link: MqttLink | None = None
        # While a sensor link is down (and LINK_CATCH_UP_NS after it is back),
        # the pipeline's timers stand still: its time moves only with edges.
        self._frozen_until: int | None = None
        self.camera: TableCamera | None = None
        self.pipeline = self._pipeline(edge_source)
        # Claimed before the journal opens: a wrong pin or a laptop stops the
        # service before anything is written.
        self.source = self._open_source(edge_source)
        try:
            self.journal = Journal(config.journal, table=config.table, venue=config.venue)
            self.runtime = self._restore()
            self.camera = self._open_camera()
            self._start_sensors()
        except BaseException:
            if self.source is not None:
                self.source.close()
            if hasattr(self, "journal"):
                self.journal.close()
            raise

    # -- time -----------------------------------------------------------------
    def now(self) -> int:
        """Match time: the host's monotonic clock plus the resume offset."""
        return self.clock.mono_ns() + self.offset_ns

    # -- start-up -------------------------------------------------------------
    def _restore(self) -> Runtime[Any]:
        source = str(self.config.journal)
        inputs = list(self.journal.inputs())
        replayed: list[Ruling] = []
        runtime = rebuild(inputs, self.config.table, source, sinks=[replayed.append])
        if runtime is not None and runtime.engine.game is not self.config.game:
            raise TablerefError(
                f"{self.config.source}: [table] game is {self.config.game.value!r} but the "
                f"journal {source} holds a {runtime.engine.game.value!r} match: use another "
                "journal, or finish that match with the game it was started with"
            )
        if runtime is None:
            start = self.now()  # one reading: the journal and the runtime must agree
            runtime = Runtime(
                self.engine,
                self.engine.start(self.config.match),
                table=self.config.table,
                boot=self.journal.boot,
                origin_ns=start,
            )
            self.runtime = runtime
            self._journal_new_match(self.config.match, start)
            return runtime
        compare(replayed, self.journal.rulings(), source)
        runtime.ruling_sinks.clear()
        last_t, last_wall = inputs[-1].t_ns, inputs[-1].wall
        beat = self.journal.last_heartbeat()
        if beat is not None and beat.t_ns > last_t:
            last_t, last_wall = beat.t_ns, beat.wall
        self.offset_ns = last_t - self.clock.mono_ns()
        runtime.boot = self.journal.boot
        runtime.next_seq = self.journal.last_seq() + 1
        self.runtime = runtime
        down_ns = max(0, seconds_to_ns(self.clock.wall() - last_wall))
        self._apply(Resumed(t_ns=self.now(), down_ns=down_ns))
        return runtime

    def _pipeline(self, edge_source: EdgeSource | None) -> SensorPipeline | None:
        if edge_source is None and self.config.backend is Backend.SIM:
            return None
        try:
            return SensorPipeline.from_settings(
                self.config.sensors,
                caller=lambda: self.module.caller(self.runtime.state) or "",
                toss_in_flight=lambda: self.module.toss_in_flight(self.runtime.state),
            )
        except TablerefError as exc:
            raise TablerefError(f"{self.config.source}: [sensors]: {exc}") from None

    def _open_source(self, edge_source: EdgeSource | None) -> EdgeSource | None:
        if edge_source is not None or self.pipeline is None:
            return edge_source
        if self.config.backend is Backend.BRIDGE:
            # Imported here: pyserial is only needed on a table with a bridge.
            # Link loss and return are health events, queued like edges.
            from firmware_bridge.host import open_bridge_source

            try:
                return open_bridge_source(self.config, clock=self.clock, on_health=self.queue.put)
            except TablerefError as exc:
                raise TablerefError(f"{self.config.source}: {exc}") from None
        # Imported here: gpiozero is only needed on a table that uses it.
        from controller.sensors.gpio import open_gpio_source

        try:
            return open_gpio_source(self.config.sensors, clock=self.clock)
        except TablerefError as exc:
            raise TablerefError(f"{self.config.source}: {exc}") from None

    def _open_camera(self) -> TableCamera | None:
        """The game's camera, for a config with a ``[camera]`` table."""
        settings = self.config.camera
        if settings is None:
            return None
        try:
            camera = self.module.live_camera(settings, self.config.journal)
        except TablerefError as exc:
            raise TablerefError(f"{self.config.source}: {exc}") from None
        if camera is not None:
            state = self.runtime.state
            faulty = CAMERA_SENSOR in self.module.suspended(state)
            self._from_mono(camera.start(self.clock.mono_ns(), state, faulty))
        return camera

    def _from_mono(self, events: list[Event]) -> None:
        """Apply inputs stamped in ``mono_ns`` (the camera's) in match time."""
        for event in events:
            self._apply(dataclasses.replace(event, t_ns=event.t_ns + self.offset_ns))

    def _start_sensors(self) -> None:
        """Read the lines' levels, reconcile the journal's faults, start the edges."""
        if self.pipeline is None or self.source is None:
            return
        mono = self.clock.mono_ns()
        self._sensor_events(self.pipeline.start(self.source.levels(), mono))
        # A line the journal holds faulty that reads idle now was mended while
        # the service was down: say so, or the match stays suspended for ever.
        faults = self.pipeline.faults()
        for sensor in sorted(self.module.suspended(self.runtime.state) - CAMERA_SENSORS):
            if not faults.get(sensor, False):
                detail = f"{sensor}: reads idle at start-up"
                self._apply(HealthEvent(t_ns=self.now(), sensor=sensor, ok=True, detail=detail))
        self.source.start(self.queue.put)

    def _carry_faults(self) -> None:
        """A new match starts with a fresh state: lines still faulty are reported again."""
        if self.pipeline is None:
            return
        for sensor, faulty in sorted(self.pipeline.faults().items()):
            if faulty:
                detail = f"{sensor}: still faulty at the start of the match"
                self._apply(HealthEvent(t_ns=self.now(), sensor=sensor, ok=False, detail=detail))

    def _journal_new_match(self, settings: Any, start_ns: int) -> None:
        payload = new_match_payload(self.module, settings)
        self.journal.record_input(start_ns, self.clock.wall(), NEW_MATCH, payload)
        self._publish_state()

    # -- applying inputs -----------------------------------------------------
    def _apply(self, event: Event) -> list[Ruling]:
        """Journal the input, step the engine, journal the rulings, publish."""
        event = self.runtime.prepare(event)
        kind, payload = encode(self.module, event)
        # One transaction, one fsync: the input is written before the engine
        # sees it, and on disk with its rulings before anything is published.
        with self.journal.transaction():
            input_id = self.journal.record_input(event.t_ns, self.clock.wall(), kind, payload)
            rulings = self.runtime.feed(event)
            also = [(self.base + "state", self._state_json(), True)]
            clock = self._clock_json(event.t_ns)
            if clock is not None:
                also.append((self.base + "clock", clock, True))
            rows = self.journal.record_rulings(input_id, rulings, self.base + "ruling", also)
        if self.link is not None:
            self.link.offer(rows)  # committed: publish now, from this thread if it can
        if self.camera is not None:  # what the match is doing now
            self._from_mono(self.camera.update(self.clock.mono_ns(), self.runtime.state, kind))
        return rulings

    def _publish_state(self) -> None:
        self.journal.enqueue(self.base + "state", self._state_json(), retain=True)
        clock = self._clock_json(self.now())
        if clock is not None:
            self.journal.enqueue(self.base + "clock", clock, retain=True)
        if self.link is not None:
            self.link.kick()

    def _state_json(self) -> str:
        doc = {
            "v": 1,
            "venue": self.config.venue,
            "table": self.config.table,
            "wall": round(self.clock.wall(), 3),
            "seq": self.runtime.next_seq - 1,
            **self.engine.snapshot(self.runtime.state),
        }
        return json.dumps(doc)

    def _clock_json(self, t_ns: int) -> str | None:
        """The retained ``clock`` payload after an input at match time ``t_ns``,
        for a game with a clock: what each clock showed then, and the wall
        time of that instant, so a display interpolates without a message
        per tick (``contracts.md`` section 3)."""
        doc = self.module.clock(self.runtime.state, t_ns)
        if doc is None:
            return None
        wall = self.clock.wall() - (self.now() - t_ns) / 1e9
        head = {"v": 1, "venue": self.config.venue, "table": self.config.table}
        return json.dumps({**head, "wall": round(wall, 3), **doc})

    # -- commands --------------------------------------------------------------
    def _command(self, raw: RawCommand, t_ns: int) -> None:
        """Run a command received at match time ``t_ns``; always answer it."""
        cmd_id: str | None = None
        try:
            command = parse_command(
                raw.verb, raw.payload, self.config.max_payload_bytes, self.module
            )
            cmd_id = command.cmd_id
            ids = self._run_command(command, t_ns)
        except CommandError as exc:
            self._result(exc.cmd_id if cmd_id is None else cmd_id, exc.reason)
        except (InputError, RejectedInput) as exc:
            self._result(cmd_id, str(exc))
        else:
            self._result(cmd_id, None, ids)

    def _run_command(self, command: Command, t_ns: int) -> list[str]:
        state = self.runtime.state
        if command.kind == NEW_MATCH:
            if not self.engine.is_over(state):
                raise CommandError(command.cmd_id, "the match is not over: end_match first")
            where = f"command {command.cmd_id}"
            unknown = set(command.fields) - {"match"}
            if unknown:
                raise CommandError(command.cmd_id, f"field {sorted(unknown)[0]!r}: unknown key")
            settings = decode_match(
                self.module, command.fields.get("match"), f"cmd/{NEW_MATCH}", where
            )
            start = t_ns
            self.runtime.new_match(self.engine.start(settings), start)
            self._journal_new_match(settings, start)
            self._carry_faults()
            return []
        event = decode(
            self.module,
            command.kind,
            command.fields,
            t_ns,
            self.module.settings(state),
            source=f"cmd/{command.verb}",
            where=f"command {command.cmd_id}",
        )
        event = self.runtime.prepare(event)
        refusal = self.engine.refusal(state, event)
        if refusal is not None:
            raise CommandError(command.cmd_id, f"refused, nothing changed: {refusal}")
        return [r.id for r in self._apply(event)]

    def _result(self, cmd_id: str | None, error: str | None, ids: list[str] | None = None) -> None:
        self.journal.enqueue(self.base + "cmd/result", result(cmd_id, error, ids))
        if self.link is not None:
            self.link.kick()

    # -- thread-safe entry points -------------------------------------------
    def submit_event(self, event: Event) -> None:
        """A sensor observation stamped in ``mono_ns``; any thread."""
        self.queue.put(dataclasses.replace(event, t_ns=event.t_ns + self.offset_ns))

    def submit_command(self, verb: str, payload: bytes) -> None:
        """A command as received on ``cmd/<verb>``; any thread."""
        self.queue.put(RawCommand(verb, payload))

    # -- the loop ----------------------------------------------------------------
    def start_link(self) -> None:
        """Connect to the broker, or say in one line that publishing is off."""
        broker = self.config.broker
        if broker is None:
            print("tableref: no [broker] configured: publishing is off", file=self.out)
            return
        target = BrokerTarget(
            host=broker.host,
            port=broker.port,
            tls=broker.tls,
            username=broker.username,
            password=broker.password,
            ca=None if broker.ca is None else str(broker.ca),
            cert=None if broker.cert is None else str(broker.cert),
            key=None if broker.key is None else str(broker.key),
            keepalive=broker.keepalive,
            client_id=broker.client_id,
            resend_on_reconnect=broker.resend_on_reconnect,
        )
        self.link = MqttLink(
            target,
            self.config.journal,
            venue=self.config.venue,
            table=self.config.table,
            on_command=self.submit_command,
        )
        self.link.start()
        self.link.kick()

    @property
    def hold_ns(self) -> int:
        """How long after a deadline its tick fires: the fusion's look-ahead."""
        return 0 if self.pipeline is None else self.pipeline.max_latency_ns

    def next_wake(self) -> int | None:
        """The ``mono_ns`` time :meth:`step_once` next has a deadline to fire."""
        wakes: list[int] = []
        if self._frozen(self.clock.mono_ns()):
            assert self._frozen_until is not None
            wakes.append(self._frozen_until)
        elif self.pipeline is not None and (due := self.pipeline.deadline()) is not None:
            wakes.append(due)
        if self.camera is not None and (due := self.camera.due()) is not None:
            wakes.append(due)
        if (due := self.runtime.deadline()) is not None:
            wakes.append(due + self.hold_ns - self.offset_ns)
        return min(wakes, default=None)

    def _fire_due(self) -> bool:
        """Fire one due deadline: the pipeline's first, so that every sensor
        event dated before an engine deadline reaches the engine before its tick."""
        mono = self.clock.mono_ns()
        if self.pipeline is not None and not self._frozen(mono):
            due = self.pipeline.deadline()
            if due is not None and mono >= due:
                self._sensor_events(self.pipeline.tick(due))
                return True
        if self.camera is not None and (due := self.camera.due()) is not None and mono >= due:
            self._from_mono(self.camera.poll(mono, self.runtime.state))
            return True
        due = self.runtime.deadline()
        if due is not None and self.now() >= due + self.hold_ns:
            self._apply(Tick(t_ns=due))
            return True
        return False

    def _sensor_events(self, events: list[Event]) -> None:
        """Apply what the pipeline handed on (stamped ``mono_ns``) in match time."""
        for event in events:
            if isinstance(event, HeldCommand):
                self._command(event.raw, event.t_ns + self.offset_ns)
            elif isinstance(event, Press):  # a camera's button (tiddlywinks' shot)
                if self.camera is not None:
                    mono = self.clock.mono_ns()  # the still is taken now
                    self._from_mono(self.camera.press(event.role, mono, self.runtime.state))
            else:
                self._from_mono([event])
            if self.pipeline is not None:
                self.pipeline.sync(event.t_ns)  # a toss may have been ruled

    def _receive(self, raw: RawCommand) -> None:
        """A command off the queue: run it now, or after the sensor events
        dated before it (answered up to the fusion's look-ahead later)."""
        mono = self.clock.mono_ns()
        if self.pipeline is None or self._frozen(mono):
            # With the sensor link down the match is suspended and the spotter
            # decides: a command is not kept waiting for the board to return.
            self._command(raw, self.now())
            return
        self.pipeline.hold(HeldCommand(t_ns=mono, raw=raw))
        self._sensor_events(self.pipeline.tick(mono))

    def _frozen(self, mono: int) -> bool:
        return self._frozen_until is not None and mono < self._frozen_until

    def _link_health(self, event: HealthEvent) -> None:
        """The bridge's link lost or back (``mono_ns``), in time order with the edges.

        Lost: every edge before it is in, so the pipeline releases all it
        holds up to it (look-ahead or not), the loss is ruled at once (the
        table is suspended now, not when the board returns), and the
        pipeline's timers stop. Back: the board now sends
        the edges it kept; the report waits in the pipeline behind them, and
        the timers start again once the catch-up time is over, so a beam
        broken and cleared during the outage is not taken for a blocked one.
        """
        assert self.pipeline is not None
        mono = self.clock.mono_ns()
        if not event.ok:
            # No edge can come now to go before what the look-ahead holds: a
            # command sent just before the loss goes before any sent during it.
            self._sensor_events(self.pipeline.flush(mono))
            self._from_mono([event])
            self._frozen_until = sys.maxsize
        else:
            self.pipeline.hold(event)
            self._frozen_until = mono + LINK_CATCH_UP_NS

    def step_once(self, timeout_s: float) -> None:
        """Fire a due deadline, or handle one queued item (waiting at most
        ``timeout_s`` for it)."""
        if self._fire_due():
            return
        wake = self.next_wake()
        if wake is not None:
            timeout_s = min(timeout_s, (wake - self.clock.mono_ns()) / 1e9)
        try:
            item = self.queue.get(timeout=max(0.0, timeout_s))
        except queue.Empty:
            return
        if isinstance(item, RawCommand):
            self._receive(item)
        elif isinstance(item, EdgeEvent):
            if self.pipeline is not None:
                self._sensor_events(self.pipeline.edge(item))
        elif isinstance(item, HealthEvent) and self.pipeline is not None:
            self._link_health(item)
        else:
            self._apply(item)

    def run(self, stop: threading.Event) -> None:
        """Referee until ``stop`` is set; journal a heartbeat every interval."""
        self.start_link()
        beat_ns = seconds_to_ns(self.config.heartbeat_s)
        watchdog = self.notifier.watchdog_interval()
        if watchdog is not None:
            beat_ns = min(beat_ns, seconds_to_ns(watchdog))
        self.notifier.ready()
        next_beat = self.now()
        try:
            while not stop.is_set():
                if self.now() >= next_beat:
                    self.journal.heartbeat(self.now(), self.clock.wall())
                    self.notifier.watchdog()
                    next_beat = self.now() + beat_ns
                wait = min(POLL_S, max(0.0, (next_beat - self.now()) / 1e9))
                self.step_once(wait)
        finally:
            self.close()

    def close(self) -> None:
        """Release the sensors, stop publishing and close the journal."""
        self.notifier.stopping()
        if self.source is not None:
            self.source.close()
        if self.camera is not None:
            self.camera.close()
        if self.link is not None:
            self.link.stop()
            self.link = None
        self.journal.close()
