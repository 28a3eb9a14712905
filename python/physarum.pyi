"""Type stub of the physarum module (python/src/module.cpp holds the docstrings)."""

import os
from typing import Any, Literal, Mapping

import numpy as np
import numpy.typing as npt

__version__: str
data_dir: str
"""The folder holding shaders/, palettes/, presets/, images/ and points/ that the module reads:
$PHYSARUM_DATA_DIR when set, else share/physarum found from the module's own folder; "" when neither
is there."""

class Error(RuntimeError):
    """A failure inside physarum (a device error, an unreadable file)."""

class FieldView:
    """The field without a copy, for torch.from_dlpack / numpy.from_dlpack."""

    def __dlpack__(
        self,
        *,
        stream: int | Any | None = None,
        max_version: tuple[int, int] | None = None,
        dl_device: tuple[int, int] | None = None,
        copy: bool | None = None,
    ) -> Any: ...
    def __dlpack_device__(self) -> tuple[int, int]: ...
    @property
    def shape(self) -> tuple[int, ...]: ...
    @property
    def strides(self) -> tuple[int, ...]:
        """In floats, not bytes."""
    @property
    def device(self) -> Literal["cuda", "cpu"]: ...

class Sim:
    def __init__(
        self,
        size: tuple[int, int] | tuple[int, int, int] | None = None,
        agents: int | str | None = None,
        preset: str | os.PathLike[str] | None = None,
        backend: Literal["auto", "cpu", "cuda"] = "auto",
        seed: int | None = None,
        threads: int = 0,
        *,
        # registry:python (made from sim/registry.hpp; a test compares)
        model_sensor_angle_deg: float = ...,
        model_rotation_angle_deg: float = ...,
        model_sensor_distance: float = ...,
        model_step_size: float = ...,
        model_deposit: float = ...,
        model_decay: float = ...,
        model_diffuse: float = ...,
        model_turn_rule: str = ...,
        model_jitter: float = ...,
        model_ring: int = ...,
        model_sharpness: float = ...,
        model_trace_decay: float = ...,
        spawn_mode: str = ...,
        spawn_field_strength: float = ...,
        spawn_agents_from_image: bool = ...,
        run_size: tuple[int, int] | str = ...,
        run_agents: int | str = ...,
        run_seed: int = ...,
        run_density: float = ...,
        run_scale: int = ...,
        display_palette: str = ...,
        display_mapping: str = ...,
        display_exposure: float = ...,
        display_gamma: float = ...,
        display_auto_range: bool = ...,
        display_invert: bool = ...,
        display_cave: str = ...,
        display_levels: int = ...,
        display_threshold: float = ...,
        display_smoothing: int = ...,
        display_blend: str = ...,
        display_cave_channel: int = ...,
        display_background: str = ...,
        display_show_walls: bool = ...,
        display_show_food: bool = ...,
        display_walls_colour: str = ...,
        display_food_colour: str = ...,
        display_volume_mode: str = ...,
        display_volume_density: float = ...,
        display_volume_opacity: float = ...,
        display_iso_level: float = ...,
        display_volume_source: str = ...,
        display_camera_yaw_deg: float = ...,
        display_camera_pitch_deg: float = ...,
        display_camera_distance: float = ...,
        display_camera_fov_deg: float = ...,
        display_camera_target_x: float = ...,
        display_camera_target_y: float = ...,
        display_camera_target_z: float = ...,
        display_clip_x0: float = ...,
        display_clip_x1: float = ...,
        display_clip_y0: float = ...,
        display_clip_y1: float = ...,
        display_clip_z0: float = ...,
        display_clip_z1: float = ...,
        display_slice_axis: str = ...,
        display_slice_at: float = ...,
        environment_food: str = ...,
        environment_walls: str = ...,
        environment_food_strength: float = ...,
        environment_boundary: str = ...,
        environment_walls_threshold: float = ...,
        environment_fit: str = ...,
        environment_points: str = ...,
        environment_points_box: str = ...,
        # /registry
        **overrides: float | int | bool | str | tuple[int, int] | list[list[float]],
    ) -> None: ...
    def step(self, n: int = 1) -> None: ...
    @property
    def field(self) -> npt.NDArray[np.float32]:
        """(H, W), or (S, H, W) with several species; a volume's (D, H, W) or (S, D, H, W); a copy."""
    @property
    def trace(self) -> npt.NDArray[np.float32]:
        """A volume's MCPM trace, shaped as its field; a copy (ValueError when no species uses mcpm)."""
    @property
    def agents(self) -> dict[str, npt.NDArray[Any]]:
        """{'id': uint32, 'x', 'y', 'theta': float32}, sorted by id; a copy."""
    def set(
        self,
        params: Mapping[str, float | int | bool | str | tuple[int, int]] | None = None,
        *,
        # registry:python (made from sim/registry.hpp; a test compares)
        model_sensor_angle_deg: float = ...,
        model_rotation_angle_deg: float = ...,
        model_sensor_distance: float = ...,
        model_step_size: float = ...,
        model_deposit: float = ...,
        model_decay: float = ...,
        model_diffuse: float = ...,
        model_turn_rule: str = ...,
        model_jitter: float = ...,
        model_ring: int = ...,
        model_sharpness: float = ...,
        model_trace_decay: float = ...,
        spawn_mode: str = ...,
        spawn_field_strength: float = ...,
        spawn_agents_from_image: bool = ...,
        run_size: tuple[int, int] | str = ...,
        run_agents: int | str = ...,
        run_seed: int = ...,
        run_density: float = ...,
        run_scale: int = ...,
        display_palette: str = ...,
        display_mapping: str = ...,
        display_exposure: float = ...,
        display_gamma: float = ...,
        display_auto_range: bool = ...,
        display_invert: bool = ...,
        display_cave: str = ...,
        display_levels: int = ...,
        display_threshold: float = ...,
        display_smoothing: int = ...,
        display_blend: str = ...,
        display_cave_channel: int = ...,
        display_background: str = ...,
        display_show_walls: bool = ...,
        display_show_food: bool = ...,
        display_walls_colour: str = ...,
        display_food_colour: str = ...,
        display_volume_mode: str = ...,
        display_volume_density: float = ...,
        display_volume_opacity: float = ...,
        display_iso_level: float = ...,
        display_volume_source: str = ...,
        display_camera_yaw_deg: float = ...,
        display_camera_pitch_deg: float = ...,
        display_camera_distance: float = ...,
        display_camera_fov_deg: float = ...,
        display_camera_target_x: float = ...,
        display_camera_target_y: float = ...,
        display_camera_target_z: float = ...,
        display_clip_x0: float = ...,
        display_clip_x1: float = ...,
        display_clip_y0: float = ...,
        display_clip_y1: float = ...,
        display_clip_z0: float = ...,
        display_clip_z1: float = ...,
        display_slice_axis: str = ...,
        display_slice_at: float = ...,
        environment_food: str = ...,
        environment_walls: str = ...,
        environment_food_strength: float = ...,
        environment_boundary: str = ...,
        environment_walls_threshold: float = ...,
        environment_fit: str = ...,
        environment_points: str = ...,
        environment_points_box: str = ...,
        # /registry
        **kwargs: float | int | bool | str | tuple[int, int] | list[list[float]],
    ) -> None: ...
    def seed_image(
        self,
        image: str | os.PathLike[str] | npt.ArrayLike,
        fit: Literal["fill", "fit"] = "fill",
    ) -> None: ...
    def brush(self, x: float, y: float, radius: float = 10.0, amount: float = 5.0, channel: int = -1) -> None: ...
    def timings(self) -> dict[str, float]: ...
    def render(
        self,
        palette: str | None = None,
        cave: Literal["off", "even", "quantile", "binary"] | None = None,
        size: tuple[int, int] | None = None,
    ) -> npt.NDArray[np.uint8]:
        """(H, W, 4) RGBA, rows top to bottom."""
    def field_view(self) -> FieldView: ...
    @property
    def size(self) -> tuple[int, int] | tuple[int, int, int]:
        """(width, height), or (width, height, depth) of a volume."""
    @property
    def agent_count(self) -> int: ...
    @property
    def steps_done(self) -> int: ...
    @property
    def species_count(self) -> int: ...
    @property
    def backend(self) -> str: ...
    @property
    def note(self) -> str: ...
    @property
    def preset_toml(self) -> str: ...

def cuda_device() -> str: ...
